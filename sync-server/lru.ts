// A bounded map that forgets what was least recently used first: the in-process caches of public
// answers (published audio, feed rows and items), which must not grow with the number of clips
// or feeds asked for. "Second chance" (CLOCK): a hit only marks its entry, so a feed build's
// thousands of hits are plain Map reads; when full, the oldest entry goes unless it was used since
// it last came round, in which case it is moved to the back unmarked and the next is looked at.

export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; used: boolean }>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Whether the key is kept, without marking it used. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    const entry = this.map.get(key);
    if (entry !== undefined) {
      entry.value = value;
      entry.used = true;
      return;
    }
    this.map.set(key, { value, used: false });
    while (this.map.size > this.capacity) this.evictOne();
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }

  private evictOne(): void {
    // Terminates: every entry moved to the back is unmarked, so at worst one round unmarks all.
    for (const [key, entry] of this.map) {
      this.map.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.map.set(key, entry);
    }
  }
}
