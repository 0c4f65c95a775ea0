import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import {
  sendLinkSchema,
  completeLinkSchema,
  profileSchema,
  assignSchema,
  skipSchema,
  toggleSchema,
  reorderSchema,
  handOutSchema,
  saveUserSchema,
  saleSchema,
  saleSchemaOn,
  saleDateError,
  notesSchema,
  firstMessage,
} from './schemas';

function errorOf(schema: z.ZodType, input: unknown): string {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return firstMessage(r.error);
}

const long = (n: number) => 'x'.repeat(n);

describe('every request body', () => {
  it.each([
    [sendLinkSchema, { email: 'a@b.co' }],
    [assignSchema, { customer: 'Ann' }],
    [skipSchema, { targetUid: 'u1', reason: 'lunch' }],
    [toggleSchema, { uid: 'u1', active: true }],
    [reorderSchema, { uid: 'u1', shown: ['u1', 'u2'], order: ['u2', 'u1'] }],
    [handOutSchema, { to: 'u1', reason: 'Speaks Spanish' }],
    [saveUserSchema, { email: 'a@b.co' }],
    [profileSchema, { name: 'Ann' }],
  ] as [z.ZodType, object][])('refuses unknown keys and non-objects', (schema, valid) => {
    expect(schema.safeParse(valid).success).toBe(true);
    expect(errorOf(schema, { ...valid, admin: true })).toBe('Unknown field: admin');
    expect(errorOf(schema, null)).toBe('Invalid request body');
    expect(errorOf(schema, 'text')).toBe('Invalid request body');
  });
});

describe('sendLinkSchema', () => {
  it('trims and lower-cases the e-mail', () => {
    expect(sendLinkSchema.parse({ email: '  Ann@Dealer.COM ' })).toEqual({ email: 'ann@dealer.com' });
  });

  it.each([{}, { email: '' }, { email: '   ' }, { email: null }])('says Email required for %j', (input) => {
    expect(errorOf(sendLinkSchema, input)).toBe('Email required');
  });

  it.each(['ann', 'ann@', '@dealer.com', 'ann dealer@x.com', 'a@b'])('refuses %j', (email) => {
    expect(errorOf(sendLinkSchema, { email })).toBe('Enter a valid e-mail address');
  });

  it('refuses a too long address and a wrong type', () => {
    expect(errorOf(sendLinkSchema, { email: `${long(200)}@x.com` })).toBe('Too long (max 200 characters)');
    expect(errorOf(sendLinkSchema, { email: 5 })).toBe('Must be text');
  });
});

describe('completeLinkSchema', () => {
  it('accepts an e-mail and a token', () => {
    expect(completeLinkSchema.parse({ email: 'Ann@X.com', token: 'abc_DEF-123' })).toEqual({
      email: 'ann@x.com',
      token: 'abc_DEF-123',
    });
  });

  it.each([{ token: 't' }, { email: '', token: 't' }, { email: ' ', token: 't' }])('says the e-mail is missing for %j', (input) => {
    expect(errorOf(completeLinkSchema, input)).toBe('Missing email for link sign-in.');
  });

  it.each([undefined, '', 'has space', 'tab\t', long(201), 7])('calls token %j an invalid link', (token) => {
    expect(errorOf(completeLinkSchema, { email: 'a@b.co', token })).toBe('Invalid or expired sign-in link.');
  });
});

describe('profileSchema', () => {
  it('trims the name and the greeting', () => {
    expect(profileSchema.parse({ name: '  Ann ', greeting: ' Howdy ' })).toEqual({ name: 'Ann', greeting: 'Howdy' });
  });

  it('turns a blank greeting into null and leaves a missing one out', () => {
    expect(profileSchema.parse({ name: 'Ann', greeting: '  ' })).toEqual({ name: 'Ann', greeting: null });
    expect(profileSchema.parse({ name: 'Ann', greeting: null })).toEqual({ name: 'Ann', greeting: null });
    expect(profileSchema.parse({ name: 'Ann' })).toEqual({ name: 'Ann' });
  });

  it.each([{}, { name: '' }, { name: '  ' }])('says Name is required for %j', (input) => {
    expect(errorOf(profileSchema, input)).toBe('Name is required');
  });

  it('limits lengths and characters', () => {
    expect(profileSchema.parse({ name: long(200) }).name).toHaveLength(200);
    expect(errorOf(profileSchema, { name: long(201) })).toBe('Too long (max 200 characters)');
    expect(errorOf(profileSchema, { name: 'Ann', greeting: long(81) })).toBe('Too long (max 80 characters)');
    expect(errorOf(profileSchema, { name: 'An\u0000n' })).toBe('Contains invalid characters');
    expect(errorOf(profileSchema, { name: 'An\nn' })).toBe('Contains invalid characters');
    expect(errorOf(profileSchema, { name: 'Ann', greeting: 'Hi\u001b[31m' })).toBe('Contains invalid characters');
    // The one text rule (domain/text.ts): no bidi override or isolate, line separator or byte-order mark; a joiner stays.
    for (const name of ['An\u202En', 'An\u2067n', 'An\u2028n', 'An\uFEFFn']) expect(errorOf(profileSchema, { name }), name).toBe('Contains invalid characters');
    expect(profileSchema.parse({ name: 'Ann \u{1F468}\u200D\u{1F527}' }).name).toBe('Ann \u{1F468}\u200D\u{1F527}');
  });
});

describe('assignSchema', () => {
  it('trims the customer', () => {
    expect(assignSchema.parse({ customer: '  Jane Roe ' })).toEqual({ customer: 'Jane Roe' });
  });

  it.each([{}, { customer: '' }, { customer: '   ' }])('says Customer is required for %j', (input) => {
    expect(errorOf(assignSchema, input)).toBe('Customer is required');
  });

  it('refuses control characters and overlong names', () => {
    expect(errorOf(assignSchema, { customer: 'Jane\u0007' })).toBe('Contains invalid characters');
    expect(errorOf(assignSchema, { customer: long(201) })).toBe('Too long (max 200 characters)');
  });
});

describe('skipSchema', () => {
  it('leaves the snooze to the dealership rule when it is not given', () => {
    expect(skipSchema.parse({ targetUid: 'u1', reason: ' lunch ' })).toEqual({ targetUid: 'u1', reason: 'lunch' });
    expect(skipSchema.parse({ targetUid: 'u1', reason: 'x', minutes: 480 }).minutes).toBe(480);
  });

  it.each([undefined, '', '  ', null])('says Select a user to skip for %j', (targetUid) => {
    expect(errorOf(skipSchema, { targetUid, reason: 'lunch' })).toBe('Select a user to skip');
  });

  it.each([{ targetUid: 'u1' }, { targetUid: 'u1', reason: ' ' }])('says Reason required for %j', (input) => {
    expect(errorOf(skipSchema, input)).toBe('Reason required');
  });

  it.each([0, 481, 1.5, '30', null])('refuses %j minutes', (minutes) => {
    expect(errorOf(skipSchema, { targetUid: 'u1', reason: 'x', minutes })).toBe('Snooze must be 1 to 480 minutes');
  });
});

describe('toggleSchema', () => {
  it('accepts either flag', () => {
    expect(toggleSchema.parse({ uid: 'u1', active: false })).toEqual({ uid: 'u1', active: false });
    expect(toggleSchema.parse({ uid: 'u1', onDuty: true })).toEqual({ uid: 'u1', onDuty: true });
  });

  it.each([{}, { uid: '' }, { active: true }])('says uid required for %j', (input) => {
    expect(errorOf(toggleSchema, input)).toBe('uid required');
  });

  it('refuses a toggle that changes nothing', () => {
    expect(errorOf(toggleSchema, { uid: 'u1' })).toBe('Say which status to change: active or onDuty');
  });

  it('refuses a flag that is not a boolean', () => {
    expect(errorOf(toggleSchema, { uid: 'u1', active: 'yes' })).toBe('active must be true or false');
    expect(errorOf(toggleSchema, { uid: 'u1', onDuty: 1 })).toBe('onDuty must be true or false');
  });
});

describe('reorderSchema', () => {
  it('takes whom, the line shown and the order wanted', () => {
    expect(reorderSchema.parse({ uid: 'u1', shown: ['u1', 'u2'], order: ['u2', 'u1'] })).toEqual({ uid: 'u1', shown: ['u1', 'u2'], order: ['u2', 'u1'] });
  });

  it('refuses a missing uid, a missing or malformed list, and a list too long', () => {
    expect(errorOf(reorderSchema, { shown: [], order: [] })).toBe('uid required');
    expect(errorOf(reorderSchema, { uid: 'u1', order: ['u1'] })).toBe('shown (the line as your screen shows it) must be a list of user ids');
    expect(errorOf(reorderSchema, { uid: 'u1', shown: ['u1'], order: 'u1' })).toBe('order (the line as you want it) must be a list of user ids');
    expect(errorOf(reorderSchema, { uid: 'u1', shown: ['u1', 5], order: ['u1'] })).toBe('shown (the line as your screen shows it) must be a list of user ids');
    expect(errorOf(reorderSchema, { uid: 'u1', shown: [''], order: ['u1'] })).toBe('shown (the line as your screen shows it) must be a list of user ids');
    const many = Array.from({ length: 501 }, (_, i) => `u${i}`);
    expect(errorOf(reorderSchema, { uid: 'u1', shown: many, order: many })).toBe('shown (the line as your screen shows it): at most 500 people');
  });
});

describe('handOutSchema', () => {
  it('hands out to Next Up with nothing, or to a named salesman with a reason', () => {
    expect(handOutSchema.parse({})).toEqual({});
    expect(handOutSchema.parse({ to: '', reason: '' })).toEqual({});
    expect(handOutSchema.parse({ to: 'u1', reason: ' Speaks Spanish ' })).toEqual({ to: 'u1', reason: 'Speaks Spanish' });
  });

  it('wants a reason with a name, and a name with a reason', () => {
    expect(errorOf(handOutSchema, { to: 'u1' })).toBe('Say why you hand it to this salesman');
    expect(errorOf(handOutSchema, { to: 'u1', reason: '   ' })).toBe('Say why you hand it to this salesman');
    expect(errorOf(handOutSchema, { reason: 'Because' })).toBe('Choose the salesman to hand it to');
    expect(errorOf(handOutSchema, { to: 'u1', reason: long(201) })).toBe('Too long (max 200 characters)');
  });
});

describe('saveUserSchema', () => {
  it('normalises e-mail, name and role', () => {
    expect(saveUserSchema.parse({ id: 'u1', email: ' Ann@X.COM ', name: ' Ann ', role: ' Manager ' })).toEqual({
      id: 'u1',
      email: 'ann@x.com',
      name: 'Ann',
      role: 'manager',
    });
  });

  it('defaults the name to User and any other role to staff', () => {
    expect(saveUserSchema.parse({ email: 'a@x.com' })).toEqual({ email: 'a@x.com', name: 'User', role: 'staff' });
    expect(saveUserSchema.parse({ email: 'a@x.com', name: '  ', role: 'owner' })).toEqual({
      email: 'a@x.com',
      name: 'User',
      role: 'staff',
    });
    expect(saveUserSchema.parse({ email: 'a@x.com', role: 7 }).role).toBe('staff');
  });

  it.each([{}, { email: '' }, { email: '  ' }])('says Email is required. for %j', (input) => {
    expect(errorOf(saveUserSchema, input)).toBe('Email is required.');
  });

  it('refuses a bad e-mail, a blank id and a bad name', () => {
    expect(errorOf(saveUserSchema, { email: 'nope' })).toBe('Enter a valid e-mail address');
    expect(errorOf(saveUserSchema, { id: ' ', email: 'a@x.com' })).toBe('id required');
    expect(errorOf(saveUserSchema, { email: 'a@x.com', name: 'A\u0000' })).toBe('Contains invalid characters');
    expect(errorOf(saveUserSchema, { email: 'a@x.com', name: long(201) })).toBe('Too long (max 200 characters)');
  });
});

describe('notesSchema', () => {
  it('keeps line breaks and tabs, allows blank notes', () => {
    expect(notesSchema.parse({ notes: ' a\n\tb ' })).toEqual({ notes: 'a\n\tb' });
    expect(notesSchema.parse({ notes: '' })).toEqual({ notes: '' });
  });

  it('refuses other control characters and more than 5000 characters', () => {
    expect(errorOf(notesSchema, { notes: 'a\u0000b' })).toBe('Contains invalid characters');
    expect(errorOf(notesSchema, { notes: 'a\rb' })).toBe('Contains invalid characters');
    expect(errorOf(notesSchema, { notes: 'a\n\u202Eb' })).toBe('Contains invalid characters');
    expect(notesSchema.parse({ notes: long(5000) }).notes).toHaveLength(5000);
    expect(errorOf(notesSchema, { notes: long(5001) })).toBe('Too long (max 5000 characters)');
  });
});

describe('saleDateError and saleSchemaOn', () => {
  it.each([
    ['2026-03-10', null],
    ['2026-03-09', null],
    ['2000-01-01', null],
    ['2026-03-11', 'Date cannot be in the future.'],
    ['9999-12-31', 'Date cannot be in the future.'],
    ['1999-12-31', 'Date cannot be before 2000.'],
    ['0001-01-01', 'Date cannot be before 2000.'],
    ['2026-02-30', 'Enter a real date (YYYY-MM-DD)'],
  ])('on 2026-03-10, %s gives %j', (date, message) => {
    expect(saleDateError(date, '2026-03-10')).toBe(message);
    const r = saleSchemaOn('2026-03-10').safeParse({ date, frontGross: '100' });
    expect(r.success ? null : r.error.issues[0].message).toBe(message);
  });
});

describe('saleSchema', () => {
  it('turns front gross into cents and fills the defaults', () => {
    expect(saleSchema.parse({ date: '2026-03-10', frontGross: '1,500.50' })).toEqual({
      date: '2026-03-10',
      vehicleType: 'new',
      frontGrossCents: 150050,
      split: 'full',
    });
    expect(saleSchema.parse({ date: '2024-02-29', frontGross: -250, vehicleType: 'used', split: 'half' })).toEqual({
      date: '2024-02-29',
      vehicleType: 'used',
      frontGrossCents: -25000,
      split: 'half',
    });
  });

  it('drops a commission sent by the client', () => {
    const sale = saleSchema.parse({ date: '2026-03-10', frontGross: 2000, commission: 999999 });
    expect(sale).not.toHaveProperty('commission');
    expect(sale.frontGrossCents).toBe(200000);
  });

  it.each([undefined, null, '', '   '])('says Front gross is required for %j', (frontGross) => {
    expect(errorOf(saleSchema, { date: '2026-03-10', frontGross })).toBe('Front gross is required');
  });

  it.each(['abc', '12.345', '1e3', true, NaN, Infinity, '2000000000'])('says %j is not a number', (frontGross) => {
    expect(errorOf(saleSchema, { date: '2026-03-10', frontGross })).toBe('Front gross must be a number like 1500 or 1500.50');
  });

  it.each([undefined, '', '2026-02-30', '2026-13-01', '10/03/2026', 20260310])('says %j is not a real date', (date) => {
    expect(errorOf(saleSchema, { date, frontGross: '100' })).toBe('Enter a real date (YYYY-MM-DD)');
  });

  it('refuses other vehicle types and splits', () => {
    expect(errorOf(saleSchema, { date: '2026-03-10', frontGross: 1, vehicleType: 'lease' })).toBe('Vehicle type must be new or used');
    expect(errorOf(saleSchema, { date: '2026-03-10', frontGross: 1, split: 0.5 })).toBe('Split must be full or half');
  });

  it('refuses a body that is not an object', () => {
    expect(errorOf(saleSchema, null)).toBe('Invalid request body');
  });
});

describe('firstMessage', () => {
  it('falls back when there is no issue', () => {
    const empty = assignSchema.safeParse({ customer: '' });
    expect(empty.success).toBe(false);
    if (!empty.success) expect(firstMessage({ ...empty.error, issues: [] })).toBe('Invalid input');
  });
});
