import protobuf from 'protobufjs';

/**
 * The part of OTLP's trace export message the tests read, as a protobufjs schema: the messages
 * and field numbers of `ExportTraceServiceRequest` (opentelemetry.proto.collector.trace.v1) down
 * to each span's ids, name, kind, times, attributes and status. Fields not listed (events,
 * links, dropped counts, flags) are skipped by the decoder, as protobuf skips unknown fields.
 * Written here rather than loaded from the `.proto` files: no npm package ships them.
 */
const anyValueFields = {
  stringValue: { type: 'string', id: 1 },
  boolValue: { type: 'bool', id: 2 },
  intValue: { type: 'int64', id: 3 },
  doubleValue: { type: 'double', id: 4 },
  arrayValue: { type: 'ArrayValue', id: 5 },
  kvlistValue: { type: 'KeyValueList', id: 6 },
  bytesValue: { type: 'bytes', id: 7 },
};

const schema = {
  nested: {
    ExportTraceServiceRequest: {
      fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } },
    },
    ResourceSpans: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    ScopeSpans: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        spans: { rule: 'repeated', type: 'Span', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    InstrumentationScope: {
      fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 } },
    },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 }, // the SpanKind enum: 1 internal, 2 server, 3 client, …
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
        status: { type: 'Status', id: 15 },
      },
    },
    // The StatusCode enum: 0 unset, 1 ok, 2 error.
    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    AnyValue: {
      oneofs: { value: { oneof: Object.keys(anyValueFields) } },
      fields: anyValueFields,
    },
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
  },
};

/** The `ExportTraceServiceRequest` message type, to decode `http/protobuf` exports with. */
export function exportTraceServiceRequest(): protobuf.Type {
  return protobuf.Root.fromJSON(schema).lookupType('ExportTraceServiceRequest');
}
