import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServeError, startServer } from '../src/start-server.js';
import { RuntimeStore } from '../src/store/runtime-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(): { root: string; db: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-corrupt-')));
  dirs.push(root);
  return { root, db: join(root, 'runtime', 'runtime.db') };
}

async function refusal(root: string, db: string): Promise<ServeError> {
  const e = await startServer({ port: 0, workspace: root, databasePath: db, env: { CODEWHALE_HOME: root, CODEWHALE_RUNTIME_TOKEN: 'corrupt-test-token-123456' } }).then(
    async (s) => {
      await s.close();
      throw new Error('the server started on a damaged database');
    },
    (x: unknown) => x,
  );
  expect(ServeError.isInstance(e)).toBe(true);
  return e as ServeError;
}

describe('a damaged database file', () => {
  it('whose pages are damaged: refused at start with its path and what to do, the file untouched, the lock released', async () => {
    const { root, db } = home();
    const store = RuntimeStore.open(db, { synchronous: 'NORMAL' });
    for (let i = 0; i < 60; i++) store.createThread({ workspace: root, mode: 'work', posture: 'ask', model: `model-${i}`, sessionId: null });
    store.close();
    const bytes = readFileSync(db);
    // Keep the header page (the file still says it is SQLite), damage every page after it.
    const pageSize = bytes.readUInt16BE(16);
    for (let off = pageSize; off < bytes.length; off++) bytes[off] = (off * 7919) & 0xff;
    writeFileSync(db, bytes);

    for (let attempt = 0; attempt < 2; attempt++) {
      const e = await refusal(root, db);
      expect(e.code).toBe('database');
      expect(e.message).toContain(`the runtime database ${db} is damaged`);
      expect(e.message).toContain('.recover');
      expect(e.message).toContain(`move the files aside (${db} ${db}-wal ${db}-shm)`);
      expect(readFileSync(db).equals(bytes)).toBe(true);
    }
  });

  it('that is not a database at all: the same refusal', async () => {
    const { root, db } = home();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(root, 'runtime'), { recursive: true, mode: 0o700 });
    writeFileSync(db, 'this is a text file, not a database\n'.repeat(300));
    const e = await refusal(root, db);
    expect(e.code).toBe('database');
    expect(e.message).toContain(`the runtime database ${db} is damaged (file is not a database)`);
  });
});
