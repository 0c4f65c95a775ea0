import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { startWeatherServer } from '../test/weather-server';
import { createWeather, WEATHER_FAILURE_TTL_MS, WEATHER_TTL_MS } from './routes';

describe.each(DIALECTS)('weather on %s', (dialect) => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof startWeatherServer>>;
  let cookie: string;
  beforeAll(async () => {
    w = await startWeatherServer({ temperature: 20, weathercode: 61 });
    t = await testApp(dialect, { WEATHER_URL: w.url });
    cookie = await t.signIn(MANAGER);
  });
  afterAll(async () => {
    await t.close();
    await w.close();
  });

  it('shows the temperature in °F with its label, and asks the service once per 10 minutes', async () => {
    const get = () => t.app.inject({ method: 'GET', url: '/api/weather', headers: { cookie } });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ temperatureF: 68, code: 61, label: 'Rain' });
    await get();
    expect(w.hits).toBe(1);
  });

  it('is for signed-in users only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/weather' })).statusCode).toBe(401);
  });
});

describe('weather cache', () => {
  const log = { warn: () => undefined } as any;
  const ctxFor = (url: string) => ({ config: { WEATHER_URL: url, WEATHER_LATITUDE: 32.7765, WEATHER_LONGITUDE: -79.9311 }, log }) as any;

  it('refetches after 10 minutes and remembers a failure for a minute only', async () => {
    const w = await startWeatherServer('fail');
    try {
      const current = createWeather(ctxFor(w.url));
      const t0 = Date.now();
      expect(await current(t0)).toBeNull();
      w.set({ temperature: 0, weathercode: 0 });
      expect(await current(t0 + 1000)).toBeNull();
      expect(w.hits).toBe(1);
      const later = t0 + WEATHER_FAILURE_TTL_MS + 1000;
      expect(await current(later)).toEqual({ temperatureF: 32, code: 0, label: 'Clear' });
      w.set({ temperature: 100, weathercode: 95 });
      expect((await current(later + WEATHER_TTL_MS - 5000))?.temperatureF).toBe(32);
      expect(await current(later + WEATHER_TTL_MS + 60_000)).toEqual({ temperatureF: 212, code: 95, label: 'Thunderstorm' });
      expect(w.hits).toBe(3);
    } finally {
      await w.close();
    }
  });

  it('is unavailable when the service cannot be reached', async () => {
    const current = createWeather(ctxFor('http://127.0.0.1:9'));
    expect(await current()).toBeNull();
  });
});
