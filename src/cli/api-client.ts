// The CLI's way into the public API: an access token from the client credentials (OAuth2 client_credentials at
// /oauth2/token), renewed once when an answer says 401.

export interface ApiCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export class ApiClient {
  private token: string | undefined;

  constructor(private readonly credentials: ApiCredentials) {}

  /** Proves the credentials: a token from the token endpoint, or an error that says why not. */
  async check(): Promise<void> {
    this.token = await this.accessToken();
  }

  private async accessToken(): Promise<string> {
    const res = await fetch(`${this.credentials.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`the token endpoint answered ${res.status}: check the client id and secret`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /** A request with the bearer token; a 401 gets a new token and one more try. */
  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.accessToken();
      const res = await fetch(`${this.credentials.baseUrl}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${this.token}` },
      });
      if (res.status !== 401 || attempt > 0) return res;
      await res.arrayBuffer();
      this.token = undefined;
    }
  }
}
