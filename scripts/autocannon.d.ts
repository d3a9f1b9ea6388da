// The parts of autocannon (no bundled types) that scripts/bench.ts and bench-storm.ts use.
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    overallRate?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    /** Requests each connection cycles through, in order. */
    requests?: {
      method?: 'GET' | 'POST';
      path: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called with each answer to this request (headers by their name as the server sent it). */
      onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string | string[]>) => void;
    }[];
  };
  type Histogram = { average: number; total: number; p50: number; p99: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number };
  /** The run: a promise of its result that also emits each response (status, bytes, response time in ms). */
  type Instance = Promise<Result> & {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): Instance;
  };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
