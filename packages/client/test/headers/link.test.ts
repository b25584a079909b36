import { describe, expect, it } from 'vitest';
import { findLink } from '../../src/headers/link.js';

const base = 'https://api.example/v1/pets?limit=2';

describe('findLink', () => {
  it('resolves a relative next link against the response URL (RFC 3986 §5)', () => {
    expect(findLink('</v1/pets?limit=2&cursor=Mg>; rel="next"', 'next', base)?.href).toBe(
      'https://api.example/v1/pets?limit=2&cursor=Mg',
    );
  });

  it('resolves a path-relative reference too', () => {
    expect(findLink('<pets?cursor=Mg>; rel=next', 'next', base)?.href).toBe(
      'https://api.example/v1/pets?cursor=Mg',
    );
  });

  it('finds the relation among several links and several relation types, case-insensitively', () => {
    const header =
      '</v1/pets>; rel="successor-version", </docs#getPet>; rel="deprecation"; type="text/html", </v1/pets?cursor=Mw>; rel="prev NEXT"';
    expect(findLink(header, 'next', base)?.href).toBe('https://api.example/v1/pets?cursor=Mw');
    expect(findLink(header, 'successor-version', base)?.href).toBe('https://api.example/v1/pets');
    expect(findLink(header, 'deprecation', base)?.href).toBe('https://api.example/docs#getPet');
  });

  it('returns undefined when the header is absent or has no such relation', () => {
    expect(findLink(null, 'next', base)).toBeUndefined();
    expect(findLink('</v1/pets>; rel="successor-version"', 'next', base)).toBeUndefined();
  });
});
