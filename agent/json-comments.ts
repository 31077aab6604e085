/**
 * The cores read their JSON config with `//` and `/* *\/` comments allowed, and operators
 * use them; strip them (outside strings) before JSON.parse.
 */
export function stripJsonComments(text: string): string {
  let result = "";
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character === '"') {
      const start = index;
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
      index++;
      result += text.slice(start, index);
    } else if (character === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index++;
    } else if (character === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 2;
      result += " ";
    } else {
      result += character;
      index++;
    }
  }
  return result;
}
