import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { redactString } from './redact.js';

/**
 * OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Spans are made at Tessera's own seams (the
 * HTTP pipeline, every database statement, card connector calls, jobs, webhook attempts) rather than by patching
 * libraries: the code runs as an ESM bundle, and at its own seams it decides what a span carries. A span carries SQL
 * text but never its values, a route and a redacted path but never a body, ids but never secrets; every string
 * attribute and exception message passes the log redaction too (docs/decisions.md, "Traces at our own seams").
 * Off, each seam costs one boolean test.
 */
const TRACER = 'tessera';
let users = 0;
let shutdown: (() => Promise<void>) | undefined;

export function tracingOn(): boolean {
  return users > 0;
}

export interface TracingOptions {
  /** The collector's base address (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces` as OTLP/HTTP JSON. */
  endpoint: string;
  serviceName: string;
  /** Resource attributes: which node this is. */
  attributes?: Attributes;
}

/**
 * Starts the process's tracer provider (one per process; further nodes in the process share it) and answers how to
 * stop it: the last node to stop flushes what is buffered and shuts it down.
 */
export async function startTracing(options: TracingOptions): Promise<() => Promise<void>> {
  users += 1;
  if (users === 1) {
    const [{ NodeSDK }, { OTLPTraceExporter }, { BatchSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
    ]);
    const sdk = new NodeSDK({
      resource: resourceFromAttributes({ 'service.name': options.serviceName, ...options.attributes }),
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }), {
          scheduledDelayMillis: 1000,
        }),
      ],
      instrumentations: [],
      // Traces only: metrics are /metrics (Prometheus), logs are JSON lines on stdout.
      logRecordProcessors: [],
    });
    sdk.start();
    shutdown = () => sdk.shutdown();
  }
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    users -= 1;
    if (users === 0) await shutdown?.();
  };
}

function tracer() {
  return trace.getTracer(TRACER);
}

/** String attributes pass the log redaction (a card number anywhere is masked). */
function clean(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) out[key] = typeof value === 'string' ? redactString(value) : value;
  }
  return out;
}

/** Marks the span failed with the error's redacted message (no stack: it can quote values). */
export function failSpan(span: Span, error: unknown): void {
  const message = redactString(error instanceof Error ? error.message : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.addEvent('exception', {
    'exception.type': error instanceof Error ? error.name : typeof error,
    'exception.message': message,
  });
}

/** Runs `work` in a span (a child of the current one) when tracing is on; otherwise just runs it. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (users === 0) return work(undefined);
  return tracer().startActiveSpan(name, { kind, attributes: clean(attributes) }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sets attributes on a span (redacted like the span's own). */
export function annotate(span: Span | undefined, attributes: Attributes): void {
  span?.setAttributes(clean(attributes));
}

/** A span that is not made current (a database statement: nothing nests under it); undefined when tracing is off. */
export function startLeafSpan(name: string, attributes: Attributes, kind: SpanKind): Span | undefined {
  if (users === 0) return undefined;
  return tracer().startSpan(name, { kind, attributes: clean(attributes) });
}

/** Ends a span, failed when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error) failSpan(span, error);
  span.end();
}

/** A server span for an incoming request, continuing the caller's trace when it sent a `traceparent`. */
export function startServerSpan(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
): { span: Span; context: Context } {
  const parent = propagation.extract(context.active(), headers);
  const span = tracer().startSpan(name, { kind: SpanKind.SERVER, attributes: clean(attributes) }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export { context, SpanKind };
