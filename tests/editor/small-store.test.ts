/**
 * The one store pattern for state outside the document: a small store tells its listeners only
 * of a change; a keyed store wakes only the listeners of the key that changed, however many
 * listen to it and in whatever order they leave.
 */
import { describe, expect, it } from 'vitest';
import { createKeyedStore, createSmallStore } from '../../src/ui/small-store';

describe('small store', () => {
  it('tells its listeners of a change, not of the same value again, and maps the value', () => {
    const store = createSmallStore(1);
    const heard: number[] = [];
    const stop = store.subscribe(() => heard.push(store.get()));
    store.set(2);
    store.set(2);
    store.set((n) => n * 10);
    stop();
    store.set(3);
    expect(heard).toEqual([2, 20]);
    expect(store.get()).toBe(3);
  });
});

describe('keyed store', () => {
  it('wakes only the listeners of the key that changed', () => {
    const store = createKeyedStore<string>();
    const heard: string[] = [];
    store.subscribe('a', () => heard.push(`a:${store.get('a')}`));
    store.subscribe('b', () => heard.push(`b:${store.get('b')}`));
    store.set('a', 'one');
    store.set('a', 'one');
    store.set('b', 'two');
    store.set('a', undefined);
    expect(heard).toEqual(['a:one', 'b:two', 'a:undefined']);
    expect([...store.keys()]).toEqual(['b']);
  });

  it('keeps telling the listeners that stay when another leaves, with or without a value', () => {
    const store = createKeyedStore<number>();
    const first: (number | undefined)[] = [];
    const second: (number | undefined)[] = [];
    const stopFirst = store.subscribe('n', () => first.push(store.get('n')));
    store.subscribe('n', () => second.push(store.get('n')));
    stopFirst();
    store.set('n', 1);
    store.set('n', undefined);
    store.set('n', 2);
    expect(first).toEqual([]);
    expect(second).toEqual([1, undefined, 2]);
    // A value set before anyone listens is there for the first to come.
    store.set('late', 5);
    const late: (number | undefined)[] = [];
    store.subscribe('late', () => late.push(store.get('late')));
    expect(store.get('late')).toBe(5);
    store.set('late', 6);
    expect(late).toEqual([6]);
  });
});
