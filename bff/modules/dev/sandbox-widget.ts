/**
 * A stand-in for the gateway's widget script: `new cp.CloudPayments().pay('charge',
 * options, {onSuccess, onFail, onComplete})` (and the older `charge(options, success,
 * fail)`) open a card form; paying posts to the sandbox, which runs Check, the charge
 * and the notifications exactly as the real gateway would. The form takes the card's
 * expiry too (optional: the same number and expiry are the same card, none means a card
 * of its own), and passes the options' `data` (the receipt) on like the real widget.
 * It pays on the sandbox it was loaded from, which for a demo instance sharing another's
 * bank (DESIGN §15) is that other instance, not the page's own origin.
 */
export const sandboxWidgetScript = `(function () {
  "use strict";
  var script = document.currentScript && document.currentScript.src;
  // ".../api/dev/sandbox/cloudpayments/widget.js" pays at ".../api/dev/sandbox/pay".
  var at = script ? script.lastIndexOf("/cloudpayments/") : -1;
  var payUrl = at >= 0 ? script.slice(0, at) + "/pay" : "/api/dev/sandbox/pay";
  var cards = "4242 4242 4242 4242 succeeds · 4012 8888 8888 1881 is declined · 4111 1111 1111 1111 pays now, later charges fail";
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text) node.textContent = text;
    return node;
  }
  function open(options, callbacks) {
    var overlay = el("div", { role: "dialog", "aria-modal": "true", "aria-label": "Card payment (sandbox)", style: "position:fixed;inset:0;background:rgba(0,0,0,.6);display:grid;place-items:center;z-index:2000;font-family:system-ui,sans-serif" });
    var box = el("form", { style: "color-scheme:light;background:#fff;color:#111;border-radius:14px;padding:24px;width:min(380px,92vw);display:grid;gap:12px" });
    box.append(el("strong", {}, "SANDBOX · " + options.description));
    box.append(el("p", { style: "margin:0" }, "Amount: " + options.amount + " " + options.currency));
    var label = el("label", { style: "display:grid;gap:4px" }, "Card number");
    var input = el("input", { name: "card", inputmode: "numeric", autocomplete: "cc-number", required: "required", style: "font:inherit;padding:10px;border:1px solid #999;border-radius:8px;background:#fff;color:#111" });
    label.append(input);
    var expiryLabel = el("label", { style: "display:grid;gap:4px" }, "Expiry (MM/YY, optional)");
    var expiry = el("input", { name: "expiry", inputmode: "numeric", autocomplete: "cc-exp", placeholder: "MM/YY", maxlength: "7", style: "font:inherit;padding:10px;border:1px solid #999;border-radius:8px;background:#fff;color:#111" });
    expiryLabel.append(expiry);
    box.append(label, expiryLabel, el("small", { style: "color:#555" }, cards));
    var error = el("p", { role: "alert", style: "margin:0;color:#b00020" });
    var pay = el("button", { type: "submit", style: "font:inherit;font-weight:700;padding:10px;border:0;border-radius:999px;background:#3ee0a1;color:#06231a;cursor:pointer" }, "Pay");
    var cancel = el("button", { type: "button", style: "font:inherit;padding:10px;border:1px solid #999;border-radius:999px;background:#fff;color:#111;cursor:pointer" }, "Cancel");
    box.append(error, pay, cancel);
    overlay.append(box);
    document.body.append(overlay);
    input.focus();
    function finish(result) { overlay.remove(); if (callbacks.onComplete) callbacks.onComplete(result, options); }
    cancel.onclick = function () { if (callbacks.onFail) callbacks.onFail("User has cancelled", options); finish({ success: false }); };
    box.onsubmit = function (event) {
      event.preventDefault();
      pay.disabled = true;
      fetch(payUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invoiceId: options.invoiceId, cardNumber: input.value, expiry: expiry.value.trim() || undefined, amount: options.amount, data: options.data }) })
        .then(function (response) { return response.json(); })
        .then(function (result) {
          // A refused request (a malformed expiry) answers {error: {message}}, not {message}.
          var reason = result.message || (result.error && result.error.message) || "Declined";
          if (result.success) { if (callbacks.onSuccess) callbacks.onSuccess(options); finish(result); }
          else { error.textContent = reason; pay.disabled = false; if (callbacks.onFail) callbacks.onFail(reason, options); }
        })
        .catch(function () { error.textContent = "The sandbox did not answer."; pay.disabled = false; });
    };
  }
  function CloudPayments() {}
  CloudPayments.prototype.pay = function (type, options, callbacks) { open(options, callbacks || {}); };
  CloudPayments.prototype.charge = function (options, onSuccess, onFail) { open(options, { onSuccess: onSuccess, onFail: onFail }); };
  window.cp = { CloudPayments: CloudPayments };
})();
`;
