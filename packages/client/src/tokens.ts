// Access tokens for a client: OAuth 2.0 client credentials at the server's token endpoint, renewed before they
// expire (with the refresh token when the server gave one, else the credentials again) and on demand after a 401.

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

interface Held {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms after which the token is renewed before use. */
  renewAfter: number;
}

/** Renewed this long before the server's expiry, so a request never leaves with a token about to lapse. */
const EARLY_MS = 30_000;

/** An access token's claims: `mid` for a merchant's key, `pid` for a partner's. */
export interface TokenClaims {
  sub: string;
  client_id: string;
  tkind: 'merchant' | 'partner';
  mid?: string;
  pid?: string;
  scope?: string;
  exp?: number;
}

export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly error: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export class TokenSource {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;

  constructor(
    private readonly tokenUrl: string,
    private readonly credentials: ClientCredentials,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token good for the next request; concurrent callers share one renewal. */
  async accessToken(): Promise<string> {
    const held = this.held;
    if (held && this.now() < held.renewAfter) return held.accessToken;
    return (await this.renew(held)).accessToken;
  }

  /**
   * What the current access token says about its holder (its JWT claims, read without verifying them: the server
   * does that), e.g. `mid`, the merchant id a merchant's key acts for.
   */
  async claims(): Promise<TokenClaims> {
    const token = await this.accessToken();
    const payload = token.split('.')[1];
    if (!payload) throw new Error('the access token is not a JWT');
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  }

  /** The server refused `token` (a 401): the next call renews it, unless another caller did already. */
  invalidate(token: string): void {
    if (this.held?.accessToken === token) this.held = { ...this.held, renewAfter: 0 };
  }

  private renew(previous: Held | undefined): Promise<Held> {
    this.pending ??= this.obtain(previous).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async obtain(previous: Held | undefined): Promise<Held> {
    if (previous?.refreshToken) {
      const refreshed = await this.grant({ grant_type: 'refresh_token', refresh_token: previous.refreshToken }).catch(
        () => undefined,
      );
      if (refreshed) return refreshed;
    }
    return this.grant({ grant_type: 'client_credentials' });
  }

  private async grant(fields: Record<string, string>): Promise<Held> {
    const started = this.now();
    const res = await this.fetchImpl(this.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...fields,
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as {
      access_token?: string;
      refresh_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!res.ok || !body.access_token) {
      const hint = res.status === 401 || body.error === 'invalid_client' ? ': check the client id and secret' : '';
      throw new TokenError(
        res.status,
        body.error,
        `the token endpoint answered ${res.status}${body.error ? ` ${body.error}` : ''}` +
          `${body.error_description ? ` (${body.error_description})` : ''}${hint}`,
      );
    }
    this.held = {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      renewAfter: started + Math.max(0, (body.expires_in ?? 300) * 1000 - EARLY_MS),
    };
    return this.held;
  }
}
