/** What the checkout page shows of a payment. */
export type CheckoutView = {
  paymentId: string;
  merchant: string;
  amount: string;
  currency: string;
  description: string;
  status: string;
  returnUrl: string | null;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const cards =
  "4242 4242 4242 4242 succeeds · 4012 8888 8888 1881 is declined · 4111 1111 1111 1111 pays now, later charges fail";

/**
 * The sandbox's stand-in for YooKassa's payment page, where a redirect confirmation sends
 * the payer: the amount, a card form with the test cards named, and nothing else. A plain
 * form, no script: it posts to the sandbox, which pays (or declines) and sends the payer
 * back to the shop's return_url, as YooKassa's page does.
 */
export function checkoutPage(view: CheckoutView, message?: string): string {
  const isOpen = view.status === "pending";
  const form = isOpen
    ? `<form method="post" action="checkout">
      <input type="hidden" name="orderId" value="${escapeHtml(view.paymentId)}">
      <label>Card number <input name="cardNumber" inputmode="numeric" autocomplete="cc-number" required></label>
      <label>Expiry (MM/YY, optional) <input name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7"></label>
      <small>${escapeHtml(cards)}</small>
      <button type="submit">Pay ${escapeHtml(view.amount)} ${escapeHtml(view.currency)}</button>
    </form>`
    : `<p>This payment is ${escapeHtml(view.status)}.</p>`;
  const back = view.returnUrl ? `<p><a href="${escapeHtml(view.returnUrl)}">Back to the shop</a></p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>SANDBOX YooKassa · ${escapeHtml(view.merchant)}</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f2f3f5; color: #111; display: grid; place-items: center; min-height: 100vh; margin: 0; }
    main { background: #fff; border-radius: 14px; padding: 24px; width: min(400px, 92vw); display: grid; gap: 12px; }
    form, label { display: grid; gap: 8px; }
    input { font: inherit; padding: 10px; border: 1px solid #888; border-radius: 8px; }
    button { font: inherit; font-weight: 700; padding: 10px; border: 0; border-radius: 999px; background: #0070f0; color: #fff; cursor: pointer; }
    small { color: #444; }
    [role="alert"] { color: #a00018; margin: 0; }
  </style>
</head>
<body>
  <main>
    <h1>SANDBOX YooKassa</h1>
    <p><strong>${escapeHtml(view.merchant)}</strong>: ${escapeHtml(view.description)}</p>
    <p>Amount: ${escapeHtml(view.amount)} ${escapeHtml(view.currency)}</p>
    ${message ? `<p role="alert">${escapeHtml(message)}</p>` : ""}
    ${form}
    ${back}
  </main>
</body>
</html>`;
}
