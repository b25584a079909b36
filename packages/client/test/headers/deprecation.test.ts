import { describe, expect, it } from 'vitest';
import { parseDeprecation } from '../../src/headers/deprecation.js';

const base = 'https://api.example/v1/pets/10';

describe('parseDeprecation', () => {
  it('reads the RFC 9745 date, the RFC 8594 sunset and the successor and documentation links', () => {
    const headers = new Headers({
      Deprecation: '@1795219200',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version", </docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html"',
    });
    expect(parseDeprecation(headers, base)).toEqual({
      deprecatedSince: new Date(1795219200 * 1000),
      sunset: new Date('2030-12-05T00:00:00Z'),
      successor: new URL('https://api.example/v1/pets'),
      documentation: new URL('https://api.example/docs#tag/Pets/operation/getPet'),
    });
  });

  it('reports a Sunset alone, with the other fields undefined', () => {
    const headers = new Headers({ Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' });
    expect(parseDeprecation(headers, base)).toEqual({
      deprecatedSince: undefined,
      sunset: new Date('2030-12-05T00:00:00Z'),
      successor: undefined,
      documentation: undefined,
    });
  });

  it('returns undefined for a response of an operation that is not deprecated', () => {
    expect(parseDeprecation(new Headers({ Link: '</v1/pets>; rel="next"' }), base)).toBeUndefined();
  });
});
