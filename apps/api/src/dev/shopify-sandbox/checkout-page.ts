import { faults, formatPrice, licenceMessages, sandboxCheckoutText as t } from '@soundid/contracts';
import type { SandboxCartRow, SandboxOrderRow } from '../../db/storefront-schema';
import { escapeHtml as e } from '../../integrations/mail/layout';
import { findSandboxVariant } from './catalogue';
import { orderName } from './storefront';

/**
 * The sandbox checkout page, rendered on the server: a form that posts (no script, so the
 * strict CSP holds), the cart's lines and total, the buyer's e-mail, Pay and Cancel; after
 * payment, the thank-you with the way back to Licenses & Devices.
 */

const STYLE = `
:root{--ink:#14151a;--text:#2b2d36;--muted:#5b5f6e;--line:#dcdfe6;--page:#f4f5f8;--primary:#2845d6;--primary-hover:#1f36ad;--danger:#b3261e;--danger-surface:#fdecea;--success:#1b6e3c;--success-surface:#e6f4ea;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--text);background:var(--page);line-height:1.5}
header{background:#fff;border-bottom:1px solid var(--line)}
.bar{max-width:64rem;margin:0 auto;padding:1rem 1.25rem;display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
.brand{font-weight:700;color:var(--ink);font-size:1.125rem}
.notice{font-size:.875rem;color:var(--muted)}
main{max-width:64rem;margin:0 auto;padding:2rem 1.25rem;display:grid;gap:2rem;grid-template-columns:minmax(0,1fr) minmax(0,24rem)}
@media (max-width:48rem){main{grid-template-columns:1fr}.summary{order:-1}}
h1{margin:0 0 1rem;color:var(--ink);font-size:1.75rem;line-height:1.25}
h2{margin:0 0 1rem;color:var(--ink);font-size:1.125rem}
section,.panel{background:#fff;border:1px solid var(--line);border-radius:10px;padding:1.5rem}
.panel>:first-child,section>:first-child{margin-top:0}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=email]{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid var(--muted);border-radius:6px}
.hint{font-size:.875rem;color:var(--muted);margin:.375rem 0 0}
.error{color:var(--danger);background:var(--danger-surface);border-radius:6px;padding:.5rem .75rem;margin:.5rem 0 0}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-top:1.5rem}
button,.button{font:inherit;font-weight:600;border-radius:6px;padding:.75rem 1.5rem;border:0;background:var(--primary);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button:hover,.button:hover{background:var(--primary-hover);color:#fff}
a{color:var(--primary)}
:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
.line{display:flex;justify-content:space-between;gap:1rem;padding:.75rem 0;border-bottom:1px solid var(--line)}
.line:last-of-type{border-bottom:0}
.line .name{font-weight:600;color:var(--ink)}
.muted{color:var(--muted);font-size:.875rem}
s{color:var(--muted)}
.total{display:flex;justify-content:space-between;font-weight:700;color:var(--ink);font-size:1.125rem;border-top:1px solid var(--line);padding-top:.75rem;margin-top:.5rem}
.subtotal{display:flex;justify-content:space-between;padding-top:.75rem}
.success{color:var(--success);background:var(--success-surface);border-radius:6px;padding:.75rem 1rem}
.single{grid-template-columns:minmax(0,40rem);justify-content:center}
`;

function page(title: string, body: string, single = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)} | SoundID Store</title>
<style>${STYLE}</style>
</head>
<body>
<header><div class="bar"><span class="brand">SoundID Store</span><span class="notice">${e(t.sandboxNotice)}</span></div></header>
<main class="${single ? 'single' : ''}">
${body}
</main>
</body>
</html>
`;
}

interface Line {
  title: string;
  variantTitle: string;
  quantity: number;
  unitCents: number;
  compareAtCents: number | null;
}

function cartLines(cart: SandboxCartRow): Line[] {
  return cart.lines.flatMap((line) => {
    const found = findSandboxVariant(line.variantId);
    return found
      ? [
          {
            title: found.product.title,
            variantTitle: found.variant.title,
            quantity: line.quantity,
            unitCents: found.variant.priceCents,
            compareAtCents: found.variant.compareAtPriceCents,
          },
        ]
      : [];
  });
}

const price = (cents: number, currency: string) => e(formatPrice(cents / 100, currency));

function summary(lines: Line[], currency: string): string {
  const total = lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
  const items = lines
    .map((line) => {
      const variant = line.variantTitle === 'Default Title' ? '' : ` · ${e(line.variantTitle)}`;
      const compareAt =
        line.compareAtCents && line.compareAtCents > line.unitCents
          ? ` <s aria-label="${e(t.compareAt)}">${price(line.compareAtCents * line.quantity, currency)}</s>`
          : '';
      return `<div class="line"><div><div class="name">${e(line.title)}${variant}</div><div class="muted">${e(t.quantity(line.quantity))}</div></div><div>${compareAt} <span>${price(line.unitCents * line.quantity, currency)}</span></div></div>`;
    })
    .join('\n');
  return `<section class="summary" aria-labelledby="summary-heading">
<h2 id="summary-heading">${e(t.orderSummary)}</h2>
${items || `<p>${e(faults.StorefrontCartEmpty.message)}</p>`}
<div class="subtotal"><span>${e(t.subtotal)}</span><span>${price(total, currency)}</span></div>
<div class="total"><span>${e(t.total)}</span><span>${price(total, currency)}</span></div>
</section>`;
}

/** The open checkout: e-mail, Pay, Cancel, and the order summary. */
export function renderCheckoutPage(options: {
  cart: SandboxCartRow;
  key: string;
  payAction: string;
  storeUrl: string;
  email?: string;
  error?: string;
}): string {
  const { cart, key, payAction, storeUrl, error } = options;
  const lines = cartLines(cart);
  const email = options.email ?? cart.buyerEmail ?? '';
  const form =
    lines.length === 0
      ? `<p>${e(faults.StorefrontCartEmpty.message)}</p><p><a href="${e(storeUrl)}">${e(t.backToStore)}</a></p>`
      : `<form method="post" action="${e(payAction)}" novalidate>
<input type="hidden" name="key" value="${e(key)}">
<h2>${e(t.contact)}</h2>
<label for="email">${e(t.emailLabel)}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${e(email)}" aria-describedby="email-hint${error ? ' email-error' : ''}"${error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="email-hint">${e(t.emailHint)}</p>
${error ? `<p class="error" id="email-error" role="alert">${e(error)}</p>` : ''}
<div class="actions"><button type="submit">${e(t.pay)}</button><a href="${e(storeUrl)}">${e(t.cancel)}</a></div>
</form>`;
  return page(
    t.title,
    `<div>
<h1>${e(t.title)}</h1>
<section aria-label="${e(t.contact)}">
${form}
</section>
</div>
${summary(lines, 'USD')}`,
  );
}

/** After payment: the order is confirmed; the licence follows through the order webhook. */
export function renderThankYouPage(options: { order: SandboxOrderRow; productsUrl: string }): string {
  const { order, productsUrl } = options;
  const lines: Line[] = order.lines.map((line) => ({
    title: line.title,
    variantTitle: line.variantTitle,
    quantity: line.quantity,
    unitCents: line.unitPriceCents,
    compareAtCents: null,
  }));
  return page(
    t.thankYouTitle,
    `<div>
<h1>${e(t.thankYouTitle)}</h1>
<div class="panel">
<p class="success" role="status">${e(t.orderConfirmed(orderName(order)))}</p>
<p>${e(t.licenceOnItsWay(order.email))}</p>
<p><a class="button" href="${e(productsUrl)}">${e(licenceMessages.toProducts)}</a></p>
</div>
</div>
${summary(lines, order.currency)}`,
  );
}

/** A checkout that cannot be shown (unknown link, lapsed cart). */
export function renderCheckoutProblemPage(options: { title: string; message: string; storeUrl: string }): string {
  return page(
    options.title,
    `<div class="panel">
<h1>${e(options.title)}</h1>
<p>${e(options.message)}</p>
<p><a href="${e(options.storeUrl)}">${e(t.backToStore)}</a></p>
</div>`,
    true,
  );
}
