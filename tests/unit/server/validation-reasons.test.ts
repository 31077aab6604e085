import { Elysia, t } from "elysia";
import { describe, expect, test } from "vitest";
import { errorHandler } from "../../../bff/platform/error-handler";
import { postJson, request } from "../../helpers/app";

// Routes shaped like the product's, behind the app's own error handler: the reasons come from
// the schema and the value, worded by core/i18n, never the validator's English.
const probe = new Elysia({ prefix: "/api" })
  .use(errorHandler)
  .post("/probe", ({ body }) => body, {
    body: t.Object({
      uid: t.String({ minLength: 3, maxLength: 5 }),
      period: t.Integer({ minimum: 1, maximum: 12 }),
      ids: t.Optional(t.Array(t.String(), { minItems: 1, maxItems: 2 })),
      kind: t.Optional(t.Union([t.Literal("first"), t.Literal("device")])),
      share: t.Optional(t.Number({ minimum: 0.2 })),
      consent: t.Optional(t.Boolean()),
      code: t.Optional(t.String({ pattern: "^[A-Z]+$" })),
    }),
  })
  .get("/pages", ({ query }) => query, { query: t.Object({ page: t.Numeric({ minimum: 0 }) }) });

const valid = { uid: "abc", period: 3 };

async function messageOf(response: Response) {
  expect(response.status).toBe(400);
  return ((await response.json()) as { error: { message: string } }).error.message;
}
const refusal = async (body: Record<string, unknown>, language = "en") =>
  messageOf(await probe.handle(postJson("/api/probe", body, { "accept-language": language })));

describe("a refused value says why, in the caller's language", () => {
  test.each([
    [{ uid: "ab" }, 'Field "uid": must be at least 3 characters long.'],
    [{ uid: "abcdef" }, 'Field "uid": must be at most 5 characters long.'],
    [{ period: 0 }, 'Field "period": must be at least 1.'],
    [{ period: 13 }, 'Field "period": must be at most 12.'],
    [{ period: 1.5 }, 'Field "period": must be a whole number from 1 to 12.'],
    [{ period: "soon" }, 'Field "period": must be a whole number from 1 to 12.'],
    [{ ids: [] }, 'Field "ids": must list at least 1 item.'],
    [{ ids: ["a", "b", "c"] }, 'Field "ids": must list at most 2 items.'],
    [{ ids: "a" }, 'Field "ids": must be a list.'],
    [{ kind: "renewal" }, 'Field "kind": must be one of: first, device.'],
    [{ share: 0.1 }, 'Field "share": must be at least 0.2.'],
    [{ consent: "yes" }, 'Field "consent": must be true or false.'],
    [{ code: "abc" }, 'Field "code": is not in the expected form.'],
  ])("%j", async (change, message) => {
    expect(await refusal({ ...valid, ...change })).toBe(message);
  });

  test("in Russian, Chinese and Kazakh the reason is worded too", async () => {
    const tooShort = { ...valid, uid: "ab" };
    expect(await refusal(tooShort, "ru")).toBe("Поле «uid»: должно содержать не меньше 3 символов.");
    expect(await refusal(tooShort, "zh")).toBe("字段“uid”：长度不能少于 3 个字符。");
    expect(await refusal(tooShort, "kk")).toBe("«uid» өрісі: кемінде 3 таңбадан тұруы керек.");
    expect(await refusal({ ...valid, period: 1.5 }, "ru")).toBe(
      "Поле «period»: должно быть целым числом от 1 до 12.",
    );
  });

  test("a value the validator cannot name gets a sentence of its own", async () => {
    const page = (language: string) =>
      probe.handle(request("/api/pages?page=-1", { headers: { "accept-language": language } }));
    expect(await messageOf(await page("en"))).toBe("A value must be at least 0.");
    expect(await messageOf(await page("ru"))).toBe("Неверный запрос: значение должно быть не меньше 0.");
  });
});
