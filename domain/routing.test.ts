import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eligibleQueue, passedOver, type Member } from './rotation';
import { member } from './member.fixture';
import { afterServe, pickWeighted, conditionOf, languageOf, matches, route, routingSchema, toBack, type LeadTraits, type Match, type Routing } from './routing';
import { NO_TRAITS } from './routing';

const NOW = new Date('2026-11-25T15:00:00Z');
const TZ = 'America/New_York';

/** A line as the server keeps it: its people (places, owed ups) and its pointer. */
type Line = { people: Member[]; pointer: number };
/** Who had the store's last up. */
let last: string | null = null;

/** One up in a line, as serve.ts applies it: Next Up gets it, the line moves by afterServe. */
function up(line: Line): Member | null {
  const next = pickWeighted(eligibleQueue(line.people, NOW), line.pointer, last);
  if (!next) return null;
  last = next.id;
  const after = afterServe(line.people, next, NOW);
  const owed = new Map(after.owed.map((o) => [o.id, o.owed]));
  line.people = line.people.map((m) => ({ ...m, owed: owed.get(m.id) ?? m.owed }));
  line.pointer = after.pointer;
  return next;
}

function back(line: Line, id: string) {
  if (!line.people.some((m) => m.id === id)) return;
  const top = Math.max(line.pointer, ...line.people.map((m) => m.position));
  const r = toBack(line.people, id, line.pointer, top);
  const places = new Map(r.places.map((p) => [p.id, p.position]));
  line.people = line.people.map((m) => ({ ...m, position: places.get(m.id) ?? m.position }));
  line.pointer = r.pointer;
}

describe('weights', () => {
  it('over 1,000 ups each person’s share is within one up of his weight’s share', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 2, maxLength: 8 }), fc.nat(), (weights, start) => {
        const line: Line = { people: weights.map((w, i) => member(`p${i}`, i + 1, { weight: w })), pointer: start % (weights.length + 1) };
        const got = new Map<string, number>();
        for (let i = 0; i < 1000; i++) {
          const m = up(line)!;
          got.set(m.id, (got.get(m.id) ?? 0) + 1);
        }
        const total = weights.reduce((a, b) => a + b, 0);
        weights.forEach((w, i) => {
          const share = (1000 * w) / total;
          expect(Math.abs((got.get(`p${i}`) ?? 0) - share), `p${i} weight ${w} of ${weights.join(',')}`).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a weight-2 salesman gets two ups per turn, spread, never back to back while others are in line', () => {
    const line: Line = { people: [member('ann', 1, { weight: 2 }), member('bob', 2), member('cy', 3), member('dee', 4)], pointer: 0 };
    const seq = Array.from({ length: 25 }, () => up(line)!.id);
    for (let i = 1; i < seq.length; i++) expect(seq[i], seq.join(' ')).not.toBe(seq[i - 1]);
    expect(seq.filter((x) => x === 'ann').length).toBe(10);
    for (const other of ['bob', 'cy', 'dee']) expect(seq.filter((x) => x === other).length).toBe(5);
  });

  it('everyone at weight 1 is the round robin it always was', () => {
    const line: Line = { people: [member('a', 1), member('b', 2), member('c', 3)], pointer: 2 };
    expect(Array.from({ length: 6 }, () => up(line)!.id)).toEqual(['c', 'a', 'b', 'c', 'a', 'b']);
  });
});

describe('caps', () => {
  it('are never exceeded: a capped salesman is out of line once he reaches it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ daily: fc.option(fc.integer({ min: 1, max: 30 })), open: fc.option(fc.integer({ min: 1, max: 30 })) }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 200 }),
        (caps, leads) => {
          const line: Line = {
            people: caps.map((c, i) => member(`p${i}`, i + 1, { dailyCap: c.daily, openCap: c.open, upsToday: 0, openLeads: 0 })),
            pointer: 0,
          };
          for (let i = 0; i < leads; i++) {
            const m = up(line);
            if (!m) break;
            line.people = line.people.map((p) => (p.id === m.id ? { ...p, upsToday: (p.upsToday ?? 0) + 1, openLeads: (p.openLeads ?? 0) + 1 } : p));
          }
          for (const p of line.people) {
            if (p.dailyCap != null) expect(p.upsToday).toBeLessThanOrEqual(p.dailyCap);
            if (p.openCap != null) expect(p.openLeads).toBeLessThanOrEqual(p.openCap);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('say why he is passed over: “At daily cap”, “12 open leads”', () => {
    const line = [member('a', 1, { dailyCap: 3, upsToday: 3 }), member('b', 2, { openCap: 12, openLeads: 12 }), member('c', 3)];
    const passes = passedOver(line, 0, line[2], NOW);
    expect(passes.map((p) => [p.member.id, p.kind, p.detail])).toEqual([
      ['a', 'cap', ''],
      ['b', 'open', '12'],
    ]);
  });
});

describe('two teams', () => {
  it('a person in two teams is never served twice in a row while others in either team are in line', () => {
    fc.assert(
      // Weight up to 2 beside two others: with more he outweighs them and back to back is unavoidable.
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 2 }), (toA, weight) => {
        const shared = (pos: number) => member('sam', pos, { weight });
        const a: Line = { people: [shared(1), member('a1', 2), member('a2', 3)], pointer: 0 };
        const b: Line = { people: [member('b1', 1), shared(2), member('b2', 3)], pointer: 0 };
        let last = '';
        for (const goesToA of toA) {
          const [line, other] = goesToA ? [a, b] : [b, a];
          const m = up(line)!;
          if (m.id === last) expect.fail(`sam twice in a row (weight ${weight})`);
          last = m.id;
          back(other, m.id);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('places', () => {
  it('climb slowly enough for a 32-bit column where the floor and teams both serve', () => {
    const floor: Line = { people: Array.from({ length: 12 }, (_, i) => member(`p${i}`, i + 1)), pointer: 0 };
    // Half the ups on the whole floor, half in teams that send one of them to the floor's back, in an
    // order a floor might see (a fixed pseudo-random walk).
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++)
      if (next() < 0.5) up(floor);
      else back(floor, `p${Math.floor(next() * 12)}`);
    // 20,000 ups within a two-hundredth of 2^31: millions of ups before a place runs out.
    expect(Math.max(floor.pointer, ...floor.people.map((m) => m.position))).toBeLessThan(2 ** 31 / 200);
  });
});

describe('routing rules', () => {
  const match = fc.record(
    {
      source: fc.constantFrom('Internet', 'Walk-in', 'AutoTrader'),
      condition: fc.constantFrom<'new' | 'used'>('new', 'used'),
      make: fc.constantFrom('Honda', 'Ford'),
      language: fc.constantFrom('es', 'fr'),
      keyword: fc.constantFrom('trade', 'lease'),
    },
    { requiredKeys: [] },
  );
  const traits = fc.record({
    source: fc.constantFrom('Internet', 'Walk-in', 'AutoTrader', ''),
    condition: fc.constantFrom<'' | 'new' | 'used'>('', 'new', 'used'),
    make: fc.constantFrom('Honda', 'Ford', ''),
    language: fc.constantFrom('es', ''),
    comments: fc.constantFrom('', 'habla español', 'looking to trade in', 'lease please'),
  });

  it('always pick the first rule whose conditions all hold, else the fallback', () => {
    fc.assert(
      fc.property(fc.array(match, { maxLength: 8 }), traits, (whens, t) => {
        const r: Routing = {
          rules: whens.map((when, i) => ({ name: `R${i}`, when, to: { team: i + 1 }, grab: null })),
          fallback: { floor: true },
          backOfEveryLine: true,
        };
        const lead: LeadTraits = { ...NO_TRAITS, ...t };
        const hit = route(r, lead, NOW, TZ);
        const first = whens.findIndex((w) => matches(w, lead, NOW, TZ));
        expect(hit.index).toBe(first < 0 ? null : first);
        expect(hit.to).toEqual(first < 0 ? { floor: true } : { team: first + 1 });
        if (first > 0) for (const w of whens.slice(0, first)) expect(matches(w, lead, NOW, TZ)).toBe(false);
      }),
    );
  });

  it('read the language from the ADF or the comments, accents and case aside', () => {
    expect(languageOf({ language: '', comments: 'Cliente: HABLA ESPAÑOL por favor' })).toBe('es');
    expect(languageOf({ language: 'es-MX', comments: '' })).toBe('es');
    expect(languageOf({ language: '', comments: 'Wants a quote' })).toBe('');
    expect(conditionOf('Pre-Owned')).toBe('used');
    expect(conditionOf('new')).toBe('new');
  });

  it('match a time of day on the store’s clock, across midnight too', () => {
    const at = (iso: string) => new Date(iso);
    const night: Match = { from: '20:00', to: '08:00' };
    expect(matches(night, NO_TRAITS, at('2026-11-26T02:00:00Z'), TZ)).toBe(true); // 21:00 in New York
    expect(matches(night, NO_TRAITS, at('2026-11-25T15:00:00Z'), TZ)).toBe(false); // 10:00
    expect(matches({ from: '09:00', to: '12:00' }, NO_TRAITS, at('2026-11-25T15:00:00Z'), TZ)).toBe(true);
  });

  it('refuse bad input with a clear message', () => {
    const bad = (v: unknown) => routingSchema.safeParse(v).error?.issues[0]?.message;
    expect(bad({ rules: [{ name: '', when: {}, to: { floor: true } }], fallback: { floor: true }, backOfEveryLine: true })).toBe(
      'A rule name must be 1 to 60 characters',
    );
    expect(bad({ rules: [{ name: 'x', when: { colour: 'red' }, to: { floor: true } }], fallback: { floor: true }, backOfEveryLine: true })).toBe(
      'Unknown condition: colour',
    );
    expect(bad({ rules: [{ name: 'x', when: { language: 'spanish' }, to: { floor: true } }], fallback: { floor: true }, backOfEveryLine: true })).toBe(
      'Language must be a two-letter code like es',
    );
    expect(bad({ rules: [], fallback: { colour: 1 }, backOfEveryLine: true })).toBe('Send it to a team or to the whole floor');
  });
});
