import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelStorage, pending } from "../../helpers/store-api";

// The network, the proof-of-work solver, Google's widget and the address bar are replaced:
// these tests are about what the sign-in screen's store does with each answer.
const widgets = vi.hoisted(() => ({ solve: vi.fn(), recaptcha: vi.fn() }));
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = {
  ...endpoints({
    captcha: (api) => api.auth.captcha.get,
    login: (api) => api.auth.login.post,
    refresh: (api) => api.auth.refreshToken.post,
  }),
  solve: widgets.solve,
  recaptcha: widgets.recaptcha,
};
vi.mock("../../../src/lib/captcha-solver", () => ({ solveAltcha: widgets.solve }));
vi.mock("../../../src/lib/recaptcha", () => ({ renderRecaptcha: widgets.recaptcha }));
const stored = panelStorage();
const assign = vi.fn();
vi.stubGlobal("location", { assign });

let store: typeof import("../../../src/stores/panel-login");
beforeEach(async () => {
  vi.resetModules();
  stored.clear();
  store = await import("../../../src/stores/panel-login");
});
afterEach(() => vi.clearAllMocks());

const challenge = { provider: "altcha", algorithm: "SHA-256", challenge: "ab", salt: "s", signature: "x" };
const tokens = { accessToken: "new.access.token", refreshToken: "new-refresh" };
/** The login route's answer: tokens, or the server's plain text with the reason's code in a header. */
const loginAnswer = (status: number, headers: Record<string, string> = {}, text = "refused") =>
  Promise.resolve({
    data: status === 200 ? tokens : null,
    error: status === 200 ? null : { status, value: text },
    response: new Response(status === 200 ? JSON.stringify(tokens) : text, { status, headers }),
  });

async function solved() {
  calls.captcha.mockReturnValueOnce(answer(challenge));
  calls.solve.mockResolvedValueOnce("solved-payload");
  await store.solveCaptcha(true);
}

describe("the sign-in screen's store", () => {
  test("a stored refresh token is tried first: on success, on to the search", async () => {
    stored.set("refreshToken", "stored-refresh");
    calls.captcha.mockReturnValueOnce(answer(challenge));
    calls.refresh.mockReturnValueOnce(answer(tokens));
    const opening = store.openLogin();
    expect(store.$loginStage.get()).toBe("refreshing");
    await opening;
    expect(calls.refresh).toHaveBeenCalledWith({ refreshToken: "stored-refresh" });
    expect(store.$loginStage.get()).toBe("refreshed");
    expect(stored.get("accessToken")).toBe("new.access.token");
    expect(assign).toHaveBeenCalledWith("/panel-search");
  });

  test("without a usable refresh token the form is shown, with the proof of work", async () => {
    calls.captcha.mockReturnValueOnce(answer(challenge));
    await store.openLogin();
    expect(calls.refresh).not.toHaveBeenCalled();
    expect(store.$loginStage.get()).toBe("form");
    expect(store.$recaptchaSiteKey.get()).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
  });

  test("reCAPTCHA replaces the proof of work when the server names its site key", async () => {
    calls.captcha.mockReturnValueOnce(answer({ provider: "recaptcha", siteKey: "site-key" }));
    await store.openLogin();
    expect(store.$recaptchaSiteKey.get()).toBe("site-key");
    const slot = {} as HTMLElement;
    calls.recaptcha.mockResolvedValueOnce(undefined);
    await store.showRecaptcha(slot, "site-key");
    expect(calls.recaptcha).toHaveBeenCalledWith(slot, "site-key", expect.any(Function));
    const onToken = calls.recaptcha.mock.lastCall?.[2] as (token: string | undefined) => void;
    onToken("google-token");
    expect(store.$captcha.get()).toBe("google-token");
    onToken(undefined);
    expect(store.$captcha.get()).toBeUndefined();
    calls.recaptcha.mockRejectedValueOnce(new Error("reCAPTCHA did not load"));
    await store.showRecaptcha(slot, "site-key");
    expect(store.$loginError.get()).toBe("panel.loginFailed");
  });

  test("ticking the box solves a fresh challenge; unticking drops it; a failure says so", async () => {
    let finish: (value: string) => void = () => undefined;
    calls.captcha.mockReturnValueOnce(answer(challenge));
    calls.solve.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const solving = store.solveCaptcha(true);
    expect(store.$isSolvingCaptcha.get()).toBe(true);
    finish("solved-payload");
    await solving;
    expect(calls.solve).toHaveBeenCalledWith(challenge);
    expect(store.$captcha.get()).toBe("solved-payload");
    expect(store.$isSolvingCaptcha.get()).toBe(false);
    await store.solveCaptcha(false);
    expect(store.$captcha.get()).toBeUndefined();
    calls.captcha.mockReturnValueOnce(Promise.resolve({ data: null, error: { status: 500, value: {} } }));
    await store.solveCaptcha(true);
    expect(store.$loginError.get()).toBe("panel.captchaFailed");
    expect(store.$isSolvingCaptcha.get()).toBe(false);
  });

  test("signing in without a solved captcha is refused before asking", async () => {
    await store.signIn("admin", "secret");
    expect(store.$loginError.get()).toBe("panel.captchaNotSolved");
    expect(calls.login).not.toHaveBeenCalled();
  });

  test("a refusal is chosen by the server's code, and the spent captcha is dropped", async () => {
    // The server's own text where it reads as the form's words; the form's words where they differ.
    const reasons: [Record<string, string>, string, string][] = [
      [{ "x-error-code": "wrong_credentials" }, "Неверный логин или пароль.", "Неверный логин или пароль."],
      [{ "x-error-code": "wrong_credentials" }, "", "panel.wrongCredentials"],
      [{ "x-error-code": "captcha_not_solved" }, "reCAPTCHA not solved!", "panel.captchaNotSolved"],
      [{ "x-error-code": "captcha_used" }, "This captcha was already used.", "panel.captchaNotSolved"],
      [{ "x-error-code": "operator_disabled" }, "This account is disabled.", "panel.accountDisabled"],
      [
        { "x-error-code": "too_many_sign_ins", "retry-after": "600" },
        "Too many failed sign-ins. Try again in 10 minutes.",
        "panel.tooManySignIns",
      ],
      [{ "x-error-code": "sign_in_busy" }, "Сервис входа занят.", "Сервис входа занят."],
      [{}, "Internal Server Error", "panel.loginFailed"],
    ];
    for (const [headers, text, words] of reasons) {
      await solved();
      calls.login.mockReturnValueOnce(loginAnswer(429, headers, text));
      await store.signIn("admin", "wrong");
      expect(store.$loginError.get()).toBe(words);
      expect(store.$captcha.get()).toBeUndefined();
      expect(store.$isSigningIn.get()).toBe(false);
    }
    expect(calls.login).toHaveBeenLastCalledWith({
      username: "admin",
      password: "wrong",
      captcha: "solved-payload",
    });
    expect(assign).not.toHaveBeenCalled();
  });

  test("a cool-down says how many whole minutes are left, at least one", async () => {
    const { $texts } = await import("../../../src/lib/i18n/runtime");
    $texts.set((await import("../../../core/i18n/en.json")).default);
    for (const [retryAfter, words] of [
      ["600", "Too many failed sign-ins. Try again in 10 min."],
      ["61", "Too many failed sign-ins. Try again in 2 min."],
      ["5", "Too many failed sign-ins. Try again in 1 min."],
    ]) {
      await solved();
      calls.login.mockReturnValueOnce(
        loginAnswer(429, { "x-error-code": "too_many_sign_ins", "retry-after": retryAfter ?? "" }),
      );
      await store.signIn("admin", "wrong");
      expect(store.$loginError.get()).toBe(words);
    }
  });

  test("a sign-in keeps the tokens and goes on to the search", async () => {
    await solved();
    const { promise: later, finish } = pending();
    calls.login.mockReturnValueOnce(later);
    const signingIn = store.signIn("admin", "right");
    expect(store.$isSigningIn.get()).toBe(true);
    finish(await loginAnswer(200));
    await signingIn;
    expect(stored.get("accessToken")).toBe("new.access.token");
    expect(stored.get("refreshToken")).toBe("new-refresh");
    expect(assign).toHaveBeenCalledWith("/panel-search");
    expect(store.$loginError.get()).toBeUndefined();
    expect(store.$isSigningIn.get()).toBe(false);
  });

  test("an operator who must still add a second factor goes to the Security screen", async () => {
    await solved();
    calls.login.mockReturnValueOnce(
      Promise.resolve({
        data: { ...tokens, enrolmentRequired: true },
        error: null,
        response: new Response("{}", { status: 200 }),
      }),
    );
    await store.signIn("admin", "right");
    expect(stored.get("accessToken")).toBe("new.access.token");
    expect(assign).toHaveBeenCalledWith("/panel-security");
  });

  test("an operator with a second factor gets its step: no tokens yet, the captcha spent", async () => {
    await solved();
    const sentAt = Date.parse("2027-03-01T10:00:00Z");
    calls.login.mockReturnValueOnce(
      Promise.resolve({
        data: {
          secondFactor: { ticket: "ticket-1", methods: ["passkey", "totp"], expiresAt: sentAt + 300_000 },
        },
        error: null,
        response: new Response("{}", { status: 200, headers: { date: new Date(sentAt).toUTCString() } }),
      }),
    );
    const before = Date.now();
    await store.signIn("admin", "right");
    expect(store.$loginStage.get()).toBe("second-factor");
    const step = store.$secondStep.get();
    expect(step).toMatchObject({ ticket: "ticket-1", methods: ["passkey", "totp"] });
    // Five minutes from now by this browser's clock, whatever the server's clock says.
    expect(step?.deadline).toBeGreaterThanOrEqual(before + 300_000);
    expect(step?.deadline).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(store.$captcha.get()).toBeUndefined();
    expect(stored.get("accessToken")).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
    store.backToPassword("why");
    expect(store.$loginStage.get()).toBe("form");
    expect(store.$secondStep.get()).toBeUndefined();
    expect(store.$loginError.get()).toBe("why");
  });

  test("a server that cannot be reached says the sign-in failed", async () => {
    await solved();
    calls.login.mockReturnValueOnce(
      Promise.resolve({
        data: null,
        error: { status: 503, value: new TypeError("Failed to fetch") },
        response: undefined,
      }),
    );
    await store.signIn("admin", "right");
    expect(store.$loginError.get()).toBe("panel.loginFailed");
    expect(store.$isSigningIn.get()).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });
});
