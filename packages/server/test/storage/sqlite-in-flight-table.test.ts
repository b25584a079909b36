import { describe, expect, it } from 'vitest';
import { InFlightTable } from '../../src/storage/sqlite/in-flight-table.js';

describe('InFlightTable', () => {
  it('gives each value its own number and gives it back once', () => {
    const table = new InFlightTable<string>();
    const a = table.add('a');
    const b = table.add('b');
    expect(a).not.toBe(b);
    expect(table.size).toBe(2);
    expect(table.take(a)).toBe('a');
    expect(table.take(a)).toBeUndefined();
    expect(table.size).toBe(1);
    expect(table.take(12345)).toBeUndefined();
    expect(table.size).toBe(1);
  });

  it('takes all that is in flight at once, oldest first', () => {
    const table = new InFlightTable<number>();
    const ids = Array.from({ length: 20 }, (_, i) => table.add(i));
    for (const id of ids.filter((_, i) => i % 3 === 0)) table.take(id);
    const left = Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(table.takeAll()).toEqual(left);
    expect(table.size).toBe(0);
    expect(table.takeAll()).toEqual([]);
    // Numbers are never reused: a value added after takeAll gets a new one.
    expect(ids).not.toContain(table.add(99));
  });
});
