import { useState } from "react";
import { api, errorMessage } from "../../lib/api-client";

/**
 * DEMO ONLY: stands in for Google's popup and Yandex's authorization page when no
 * client ids are configured. It asks for an e-mail and issues a signed token.
 */
export function DemoIdentityProvider() {
  const query = new URLSearchParams(location.search);
  const provider = query.get("provider") === "yandex" ? "yandex" : "google.com";
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [isBusy, setIsBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    setError(undefined);
    const { data, error: failure } = await api.dev.idp.token.post({
      email,
      provider,
      clientId: query.get("client_id") ?? undefined,
      // Google echoes the nonce its sign-in was started with in the ID token.
      nonce: provider === "google.com" ? (query.get("nonce") ?? undefined) : undefined,
    });
    if (!data) {
      setError(errorMessage(failure) ?? "The demo provider could not sign you in.");
      setIsBusy(false);
      return;
    }
    if (provider === "yandex") {
      const redirect = new URL(query.get("redirect_uri") ?? "/yauth", location.origin);
      if (redirect.origin !== location.origin) {
        setError("The redirect address is not this site.");
        setIsBusy(false);
        return;
      }
      // Yandex's implicit flow answers in the fragment and returns `state` unchanged.
      const answer = new URLSearchParams({
        access_token: data.credential,
        token_type: "bearer",
        expires_in: "3600",
      });
      const state = query.get("state");
      if (state !== null) answer.set("state", state);
      location.replace(`${redirect.pathname}#${answer}`);
      return;
    }
    window.opener?.postMessage({ type: "kannt-demo-idp", credential: data.credential }, location.origin);
    window.close();
  };

  return (
    // Stands in for the provider's own page, which speaks the provider's language, not ours;
    // marked as English so assistive technology reads it as such on a page in another language.
    <main id="main" className="screen screen--center" lang="en">
      <section className="card login">
        <p className="demo-badge">DEMO</p>
        <h1>{provider === "yandex" ? "Yandex ID (demo)" : "Google (demo)"}</h1>
        <p>This stand-in provider signs you in with any e-mail. It only exists in demo mode.</p>
        <form onSubmit={submit} className="form">
          <label className="field">
            <span>E-mail</span>
            <input
              type="email"
              required
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </label>
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={isBusy}>
            Continue
          </button>
        </form>
      </section>
    </main>
  );
}
