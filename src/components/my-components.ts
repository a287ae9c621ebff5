/**
 * My components: components saved in this browser (IndexedDB, through `idb` as every store of
 * the editor), offered by the palette in every workflow. Each is kept as its file's text (a
 * component file, workflow/component-file.ts), read back through the same checks as an import,
 * so a record altered in storage is refused like a hostile file. Keyed by the component's id:
 * saving it again replaces it.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { readComponentFile, type ComponentPack } from '../../workflow/component-file';

const DB_NAME = 'atelier-components';
const STORE = 'components';

export interface SavedComponent {
  id: string;
  name: string;
  description?: string;
  /** The component's file, as Export component writes it. */
  text: string;
  savedAt: string;
}

/** A saved component read back: its definitions, ready for the palette. */
export interface MyComponent extends ComponentPack {
  savedAt: string;
}

let dbPromise: Promise<IDBPDatabase> | undefined;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, 1, {
    upgrade(database) {
      if (!database.objectStoreNames.contains(STORE)) database.createObjectStore(STORE, { keyPath: 'id' });
    },
  }).catch((error: unknown) => {
    dbPromise = undefined;
    throw error;
  });
  return dbPromise;
}

/** Saves a component's file text (checked first, as an import would be); replaces one of the same id. */
export async function saveMyComponent(text: string, now: () => Date = () => new Date()): Promise<MyComponent> {
  const pack = readComponentFile(text);
  const record: SavedComponent = {
    id: pack.main.id, name: pack.main.name, text, savedAt: now().toISOString(),
    ...(pack.main.description === undefined ? {} : { description: pack.main.description }),
  };
  await (await db()).put(STORE, record);
  return { ...pack, savedAt: record.savedAt };
}

/** Every saved component that still reads as one, by name; those that do not are left out (and said once in the console). */
export async function listMyComponents(): Promise<MyComponent[]> {
  const records = (await (await db()).getAll(STORE)) as SavedComponent[];
  const out: MyComponent[] = [];
  for (const record of records) {
    try {
      out.push({ ...readComponentFile(record.text), savedAt: record.savedAt });
    } catch (error) {
      console.warn(`My components: '${String(record.id)}' no longer reads as a component and is not offered`, error);
    }
  }
  return out.sort((a, b) => a.main.name.localeCompare(b.main.name));
}

/** Removes a saved component. */
export async function removeMyComponent(id: string): Promise<void> {
  await (await db()).delete(STORE, id);
}
