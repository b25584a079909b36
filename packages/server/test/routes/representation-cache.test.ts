import { describe, expect, it } from 'vitest';
import { type Representation, RepresentationCache } from '../../src/routes/representation-cache.js';

const answer = (text: string): Representation<string> => ({ body: text, text, etag: `"${text}"` });

describe('RepresentationCache', () => {
  it('answers what was stored at the revision it is asked at', () => {
    const cache = new RepresentationCache<string>();
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', 1, answer('one'));
    expect(cache.get('a', 1)).toEqual(answer('one'));
    expect(cache.get('b', 1)).toBeUndefined();
  });

  it('forgets every answer once a new revision is seen, even if the old one comes back', () => {
    const cache = new RepresentationCache<string>();
    cache.get('a', 1);
    cache.set('a', 1, answer('one'));
    expect(cache.get('b', 2)).toBeUndefined();
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('keeps nothing read at a revision older than one already seen', () => {
    const cache = new RepresentationCache<string>();
    cache.get('a', 1); // a request reads revision 1, then the store
    cache.get('b', 2); // meanwhile another sees revision 2
    cache.set('a', 1, answer('stale'));
    expect(cache.get('a', 2)).toBeUndefined();
  });

  it('keeps nothing while the store cannot tell its revision', () => {
    const cache = new RepresentationCache<string>();
    expect(cache.get('a', undefined)).toBeUndefined();
    cache.set('a', undefined, answer('one'));
    expect(cache.get('a', undefined)).toBeUndefined();
  });

  it('keeps at most maxEntries answers, the least recently used going first', () => {
    const cache = new RepresentationCache<string>({ maxEntries: 2 });
    cache.get('a', 1);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 1, answer(key));
    const kept = ['a', 'b', 'c', 'd'].filter((key) => cache.get(key, 1) !== undefined);
    expect(kept.length).toBeLessThanOrEqual(2);
    expect(kept).toContain('d');
  });
});
