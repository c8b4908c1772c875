/**
 * One colour per target, the same in every chart of a panel and from one run to the next: a target's
 * slot in the theme's series is derived from its name, not from where it stands in the run. Pure (no
 * DOM), so charts, cards and tests share it.
 */

/** FNV-1a over the name's UTF-16 code units: small, stable, and spreads similar names apart. */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Each name's slot in a palette of `size` colours. A name takes the slot its hash points at; when two
 * names of the run point at one slot, the name that sorts later takes the next free one, so two
 * targets of a run never share a colour while the palette has room, and a name keeps its slot in any
 * run where no other name collides with it. `families`: slots `i` and `i + families` are shades of one
 * hue (the theme's six colours, then each mixed with the text colour), so while a hue is free a name
 * does not take a slot whose hue another target already shows.
 */
export function targetSlots(names: readonly string[], size: number, families = size): Map<string, number> {
  const slots = new Map<string, number>();
  if (size <= 0) return slots;
  const taken = new Set<number>();
  const hues = new Set<number>();
  const free = (slot: number, hueToo: boolean) => !taken.has(slot) && (!hueToo || !hues.has(slot % families));
  for (const name of [...new Set(names)].sort()) {
    let slot = nameHash(name) % size;
    // More targets than colours: share from then on rather than loop for ever.
    if (taken.size < size) {
      const hueToo = hues.size < families;
      for (let step = 0; step < size && !free(slot, hueToo); step++) slot = (slot + 1) % size;
    }
    taken.add(slot);
    hues.add(slot % families);
    slots.set(name, slot);
  }
  return slots;
}
