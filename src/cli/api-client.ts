// The CLI's way into the public API: the typed client of packages/client (client credentials, renewal, one retry
// after a 401, idempotency keys), so the CLI speaks the same schemas the server documents.
import { createTesseraClient, type TesseraClient } from '@tessera/client';

export interface ApiCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export function connect(credentials: ApiCredentials): TesseraClient {
  return createTesseraClient(credentials);
}

/** Proves the credentials: a token from the token endpoint, or an error that says why not. */
export async function checkCredentials(credentials: ApiCredentials): Promise<void> {
  await connect(credentials).tokens.accessToken();
}
