import { esc } from './html.js';

export interface TerminalForm {
  kind?: string;
  amount?: string;
  expirationMonth?: string;
  expirationYear?: string;
  line1?: string;
  postalCode?: string;
  referenceId?: string;
}

/**
 * The virtual terminal: a card the merchant's staff key in for a customer who is not present (a phone order). The
 * card number and security code are never echoed back into the page.
 */
export function terminalMain(m: {
  csrf: string;
  formId: string;
  values: TerminalForm;
  errors: Record<string, string>;
  alert?: string;
}): string {
  const v = m.values;
  const error = (name: string) =>
    m.errors[name] ? `<p class="field-error" id="${name}-error">${esc(m.errors[name])}</p>` : '';
  const described = (name: string, help?: string) => {
    const ids = [help, m.errors[name] ? `${name}-error` : undefined].filter(Boolean).join(' ');
    return `${ids ? ` aria-describedby="${ids}"` : ''}${m.errors[name] ? ' aria-invalid="true"' : ''}`;
  };
  const input = (name: string, label: string, attrs: string, value = '', help?: string) =>
    `<div><label for="${name}">${esc(label)}</label><input id="${name}" name="${name}" ${attrs} value="${esc(value)}"${described(
      name,
      help ? `${name}-help` : undefined,
    )}>${help ? `<p id="${name}-help" class="help">${esc(help)}</p>` : ''}${error(name)}</div>`;
  const kind = v.kind === 'authorize' ? 'authorize' : 'sale';
  return `<h1>Virtual terminal</h1><p><a href="/dashboard/terminal/saved">Charge a customer’s saved card or bank account, or debit a bank account</a></p>${m.alert ? `<p class="alert" role="alert">${esc(m.alert)}</p>` : ''}
<form method="post" action="/dashboard/terminal" class="card" novalidate>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="formId" value="${esc(m.formId)}">
<fieldset><legend>Charge</legend>
<div class="choice"><input type="radio" id="kind-sale" name="kind" value="sale"${kind === 'sale' ? ' checked' : ''}><label for="kind-sale">Sale (charge now)</label></div>
<div class="choice"><input type="radio" id="kind-authorize" name="kind" value="authorize"${kind === 'authorize' ? ' checked' : ''}><label for="kind-authorize">Authorization (capture later)</label></div>
</fieldset>
<div class="grid">
${input('amount', 'Amount', 'inputmode="decimal" required autocomplete="off"', v.amount ?? '', 'In US dollars, e.g. 25.00.')}
${input('referenceId', 'Reference', 'maxlength="100" autocomplete="off"', v.referenceId ?? '', 'An order number, if any.')}
</div>
<fieldset><legend>Card</legend><div class="grid">
${input('accountNumber', 'Card number', 'inputmode="numeric" required autocomplete="off"')}
${input('expirationMonth', 'Expiry month', 'inputmode="numeric" maxlength="2" required autocomplete="off"', v.expirationMonth ?? '', 'MM')}
${input('expirationYear', 'Expiry year', 'inputmode="numeric" maxlength="4" required autocomplete="off"', v.expirationYear ?? '', 'YYYY')}
${input('securityCode', 'Security code', 'inputmode="numeric" maxlength="4" autocomplete="off"')}
</div></fieldset>
<fieldset><legend>Billing address (checked with the card issuer)</legend><div class="grid">
${input('line1', 'Street address', 'autocomplete="off"', v.line1 ?? '')}
${input('postalCode', 'ZIP code', 'autocomplete="off" maxlength="10"', v.postalCode ?? '')}
</div></fieldset>
<button type="submit">Charge card</button></form>`;
}
