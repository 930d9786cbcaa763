/** The associated data a presented card is sealed with (the key-encryption key): it opens only for its terminal. */
export const sealedCardContext = (terminalId: string) => `sandbox-presented-card:${terminalId}`;
