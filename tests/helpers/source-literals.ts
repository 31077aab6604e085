/**
 * The string and template literals of a TypeScript, TSX or Astro source, with the line each
 * starts on. Comments are skipped, and a template's `${…}` parts count as one blank, so
 * `SELECT ${columns} FROM t` reads as one text. A hand-made lexer rather than a parser: the
 * project's TypeScript is the native compiler, which offers no syntax tree to a script.
 *
 * Text outside code (JSX and Astro markup) may hold an apostrophe that looks like a quote;
 * a quoted literal cannot span lines, so the lexer drops such a false one at the line's end
 * and stays in step with the code after it.
 */
export type SourceLiteral = { line: number; text: string };

/** After these a `/` starts a regular expression rather than a division. */
const beforeRegex =
  /(?:^|[(,=:[!&|?{};+\-*%<>~^]|\b(?:return|typeof|case|do|else|in|of|void|yield|await))\s*$/;

export function sourceLiterals(source: string): SourceLiteral[] {
  const literals: SourceLiteral[] = [];
  let line = 1;
  let index = 0;
  /** The code just read, each literal as `0`: whether a `/` starts a regular expression. */
  let recent = "";
  const read = (code: string) => {
    recent = (recent + code).slice(-40);
  };
  /** For each open template, how deep inside its current `${…}` the braces are. */
  const templates: number[] = [];

  const advance = (character: string) => {
    if (character === "\n") line++;
    index++;
  };

  const readQuoted = (quote: string) => {
    const start = line;
    let text = "";
    advance(quote);
    while (index < source.length) {
      const character = source[index] as string;
      if (character === "\\") {
        text += source.slice(index, index + 2);
        advance(character);
        if (index < source.length) advance(source[index] as string);
        continue;
      }
      if (character === "\n") return; // not a literal: prose around an apostrophe
      advance(character);
      if (character === quote) {
        literals.push({ line: start, text });
        return;
      }
      text += character;
    }
  };

  /** Reads template text up to its end or its next `${`; returns whether a `${` opened. */
  const readTemplateText = (literal: SourceLiteral) => {
    while (index < source.length) {
      const character = source[index] as string;
      if (character === "\\") {
        literal.text += source.slice(index, index + 2);
        advance(character);
        if (index < source.length) advance(source[index] as string);
        continue;
      }
      if (character === "`") {
        advance(character);
        return false;
      }
      if (character === "$" && source[index + 1] === "{") {
        literal.text += " ? ";
        advance("$");
        advance("{");
        return true;
      }
      literal.text += character;
      advance(character);
    }
    return false;
  };

  const openTemplates: SourceLiteral[] = [];
  const continueTemplate = () => {
    const literal = openTemplates[openTemplates.length - 1] as SourceLiteral;
    if (readTemplateText(literal)) {
      templates.push(0);
      return;
    }
    openTemplates.pop();
    literals.push(literal);
  };

  while (index < source.length) {
    const character = source[index] as string;
    const next = source[index + 1];
    if (character === "/" && next === "/") {
      while (index < source.length && source[index] !== "\n") advance(source[index] as string);
      read(" ");
    } else if (character === "/" && next === "*") {
      advance("/");
      advance("*");
      while (index < source.length && !(source[index] === "*" && source[index + 1] === "/")) {
        advance(source[index] as string);
      }
      advance("*");
      advance("/");
      read(" ");
    } else if (character === "'" || character === '"') {
      readQuoted(character);
      read("0");
    } else if (character === "`") {
      advance(character);
      openTemplates.push({ line, text: "" });
      continueTemplate();
    } else if (character === "/" && beforeRegex.test(recent)) {
      skipRegex();
      read("0");
    } else if (templates.length > 0 && (character === "{" || character === "}")) {
      advance(character);
      const depth = templates.length - 1;
      if (character === "{") templates[depth] = (templates[depth] as number) + 1;
      else if (templates[depth] === 0) {
        templates.pop();
        continueTemplate();
      } else templates[depth] = (templates[depth] as number) - 1;
      read(character);
    } else {
      advance(character);
      read(character);
    }
  }
  return literals;

  function skipRegex() {
    advance("/");
    let inClass = false;
    while (index < source.length) {
      const character = source[index] as string;
      if (character === "\n") return;
      advance(character);
      if (character === "\\") {
        if (index < source.length) advance(source[index] as string);
      } else if (character === "[") inClass = true;
      else if (character === "]") inClass = false;
      else if (character === "/" && !inClass) return;
    }
  }
}
