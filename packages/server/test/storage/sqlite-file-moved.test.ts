import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage, type Storage, StoreUnavailableError } from '../../src/storage/index.js';

/**
 * SQLite keeps using the file it opened after that file leaves its path, so every write from
 * then on would be gone at the next restart: the store's readiness check says so instead.
 * The writer thread is started first (a create), as in a running server, so the writes that
 * follow would succeed on the file that left.
 */
describe('the SQLite store whose file leaves its path', () => {
  let dir: string;
  let file: string;
  let storage: Storage;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-moved-'));
    file = path.join(dir, 'data', 'petstore.db');
    storage = openSqliteStorage(file);
    await storage.pets.create({ name: 'Before', categoryId: 1 });
    await expect(storage.ping()).resolves.toBeUndefined();
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expectUnready = async () => {
    const error: unknown = await storage.ping().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain(`${file} was deleted, renamed or replaced`);
  };

  it('is unready once its directory is removed, though the write itself would still succeed', async () => {
    rmSync(path.join(dir, 'data'), { recursive: true, force: true });
    await expectUnready();
    await expect(storage.pets.create({ name: 'Lost', categoryId: 1 })).resolves.toMatchObject({
      name: 'Lost',
    });
  });

  it('is unready while another database stands at its path', async () => {
    const other = openSqliteStorage(path.join(dir, 'other', 'petstore.db'));
    await other.close();
    rmSync(path.join(dir, 'data'), { recursive: true, force: true });
    mkdirSync(path.join(dir, 'data'));
    renameSync(path.join(dir, 'other', 'petstore.db'), file);
    await expectUnready();
  });

  it('is ready again when its file is renamed back', async () => {
    renameSync(file, `${file}.away`);
    await expectUnready();
    renameSync(`${file}.away`, file);
    await expect(storage.ping()).resolves.toBeUndefined();
  });
});
