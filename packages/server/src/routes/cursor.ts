/**
 * The opaque `cursor` of `GET /v1/pets` pages: the base64url of the last id returned. Clients
 * must not build or alter it (the contract says so); decoding accepts only what encoding yields.
 */
export function encodeCursor(lastId: number): string {
  return Buffer.from(String(lastId), 'utf8').toString('base64url');
}

/** The id a cursor stands for, or undefined when it is not one this server issued. */
export function decodeCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  if (!Number.isSafeInteger(id) || encodeCursor(id) !== cursor) return undefined;
  return id;
}
