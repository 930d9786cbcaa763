/** "12.34" (dollars) to cents, or undefined when it is not an amount. Never through floating point. */
export function cents(text: string | undefined): number | undefined {
  const value = (text ?? '').trim().replace(/^\$/, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) return undefined;
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
