declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
      requests?: Array<{
        method?: string;
        path?: string;
        headers?: Record<string, string>;
        body?: string;
        setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
      }>;
      /** Called once per connection as it is made; headers set here are built into that connection's request once. */
      setupClient?: (client: Client) => void;
    }
    interface Client {
      setHeaders(headers: Record<string, string>): void;
    }
    interface Result {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
