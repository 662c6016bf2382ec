/**
 * An OTLP/HTTP receiver for tests: takes what an exporter POSTs to `/v1/traces` and `/v1/metrics`, answers
 * 200, and keeps the spans of JSON bodies (and the raw bytes of protobuf ones) for the test to read.
 */
import { createServer } from 'node:http';
import { waitForValue } from '@entropic-mcp/test-kit/wait';

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly status: { readonly code?: number; readonly message?: string };
  readonly links: { readonly traceId: string; readonly spanId: string }[];
  /** The instrumentation scope that made it. */
  readonly scope: string;
}

export interface OtlpReceiver {
  /** The endpoint to put in OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Every request: path, content type and body. */
  readonly posts: { path: string; type: string; body: Buffer }[];
  /** The first span matching `match`, waiting for it to arrive. */
  span(match: (s: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};

function plainValue(v: AnyValue): unknown {
  return (
    v.stringValue ??
    (v.intValue === undefined ? undefined : Number(v.intValue)) ??
    v.boolValue ??
    v.doubleValue
  );
}

function collect(body: Record<string, unknown>, into: ReceivedSpan[]): void {
  for (const rs of (body.resourceSpans as Record<string, unknown>[] | undefined) ?? []) {
    for (const ss of (rs.scopeSpans as Record<string, unknown>[] | undefined) ?? []) {
      const scope = (ss.scope as { name?: string } | undefined)?.name ?? '';
      for (const raw of (ss.spans as Record<string, unknown>[] | undefined) ?? []) {
        const attributes: Record<string, unknown> = {};
        for (const a of (raw.attributes as { key: string; value: AnyValue }[] | undefined) ?? [])
          attributes[a.key] = plainValue(a.value);
        into.push({
          traceId: raw.traceId as string,
          spanId: raw.spanId as string,
          ...(raw.parentSpanId ? { parentSpanId: raw.parentSpanId as string } : {}),
          name: raw.name as string,
          kind: raw.kind as number,
          attributes,
          status: (raw.status as ReceivedSpan['status']) ?? {},
          links: (raw.links as ReceivedSpan['links']) ?? [],
          scope,
        });
      }
    }
  }
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const posts: OtlpReceiver['posts'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      posts.push({ path: req.url ?? '', type, body });
      if (req.url === '/v1/traces' && type.includes('json')) collect(JSON.parse(body.toString()), spans);
      res
        .writeHead(200, { 'content-type': type.includes('json') ? 'application/json' : type })
        .end(type.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    posts,
    span: (match, timeoutMs = 20_000) =>
      waitForValue(() => spans.find(match), 'a matching span', timeoutMs).catch((error: Error) => {
        throw new Error(`${error.message}, among ${spans.map((s) => s.name).join(', ') || 'none'}`);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
