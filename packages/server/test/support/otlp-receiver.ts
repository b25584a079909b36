import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type protobuf from 'protobufjs';
import { exportTraceServiceRequest } from './otlp-trace-schema.js';

/** A span as received, the same whichever OTLP/HTTP encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP's SpanKind: 2 SERVER, 3 CLIENT. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The resource's attributes (`service.name`, …). */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  spans: ReceivedSpan[];
  /** The `Content-Type` of every export received. */
  contentTypes: string[];
  /** Resolves with the spans once `enough` says the spans received so far are enough. */
  waitFor(enough: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind?: number;
  attributes?: KeyValue[];
  status?: { code?: number };
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

const valueOf = (value: AnyValue | undefined): string | number | boolean => {
  if (value?.stringValue !== undefined) return value.stringValue;
  if (value?.boolValue !== undefined) return value.boolValue;
  if (value?.intValue !== undefined) return Number(value.intValue);
  return value?.doubleValue ?? '';
};
const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * Decodes one export: OTLP/JSON (ids in hex, as the specification says) or OTLP/protobuf
 * (ids as bytes, made hex here).
 */
function decode(contentType: string, body: Buffer, requestType: protobuf.Type): ExportRequest {
  if (contentType.startsWith('application/json'))
    return JSON.parse(body.toString('utf8')) as ExportRequest;
  if (!contentType.startsWith('application/x-protobuf'))
    throw new Error(`unexpected Content-Type ${contentType}`);
  const message = requestType.toObject(requestType.decode(body), {
    longs: String,
    enums: Number,
    bytes: String,
  }) as ExportRequest;
  const hex = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('hex');
  for (const resourceSpans of message.resourceSpans ?? [])
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        span.parentSpanId = hex(span.parentSpanId);
      }
  return message;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An OTLP/HTTP trace receiver on loopback, as a collector would be: it accepts
 * `POST /v1/traces` in either encoding, answers as the specification asks (200 with an empty
 * response of the same encoding), and keeps every span.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requestType = exportTraceServiceRequest();
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((req, res) => {
    void (async () => {
      const contentType = req.headers['content-type'] ?? '';
      const body = await bodyOf(req);
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(contentType);
      for (const resourceSpans of decode(contentType, body, requestType).resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? [])
          for (const span of scopeSpans.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              traceState: span.traceState ?? '',
              name: span.name,
              kind: span.kind ?? 0,
              attributes: attributesOf(span.attributes),
              statusCode: span.status?.code ?? 0,
              resource,
            });
      }
      if (contentType.startsWith('application/json'))
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
      for (const wake of waiting) wake();
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor(enough) {
      return new Promise((resolve) => {
        const check = () => {
          if (!enough(spans)) return;
          waiting.delete(check);
          resolve(spans);
        };
        waiting.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
