import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { ApiError } from '../http/errors';
import { celsiusToFahrenheit, weatherLabel } from '../../domain/weather';
import { messageOf } from '../../domain/errors';

export const WEATHER_TTL_MS = 10 * 60 * 1000;
/** A failure is remembered briefly so a down service is not asked on every page view. */
export const WEATHER_FAILURE_TTL_MS = 60 * 1000;
const TIMEOUT_MS = 3000;

/** The part of Open-Meteo's forecast we read. */
const forecast = z.object({ current_weather: z.object({ temperature: z.number(), weathercode: z.number() }) });

export interface Weather {
  temperatureF: number;
  code: number;
  label: string;
}

export function createWeather(ctx: Ctx) {
  let cached: { at: number; value: Weather | null } | null = null;
  let inflight: Promise<Weather | null> | null = null;

  async function fetchNow(): Promise<Weather | null> {
    const { WEATHER_URL, WEATHER_LATITUDE, WEATHER_LONGITUDE } = ctx.config;
    const url = `${WEATHER_URL.replace(/\/+$/, '')}/v1/forecast?latitude=${WEATHER_LATITUDE}&longitude=${WEATHER_LONGITUDE}&current_weather=true`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) throw new Error(`weather service answered ${res.status}`);
      const body = forecast.safeParse(await res.json());
      if (!body.success) throw new Error('weather answer has no current_weather');
      const { temperature, weathercode: code } = body.data.current_weather;
      return { temperatureF: celsiusToFahrenheit(temperature), code, label: weatherLabel(code) };
    } catch (err) {
      ctx.log.warn({ err: messageOf(err) }, 'weather unavailable');
      return null;
    }
  }

  return async function current(now = Date.now()): Promise<Weather | null> {
    if (cached && now - cached.at < (cached.value ? WEATHER_TTL_MS : WEATHER_FAILURE_TTL_MS)) return cached.value;
    inflight ??= fetchNow().then((value) => {
      cached = { at: now, value };
      inflight = null;
      return value;
    });
    return inflight;
  };
}

export async function weatherRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const current = createWeather(ctx);
  implement(app, 'GET /weather', async () => {
    const w = await current();
    if (!w) throw new ApiError(503, 'Weather unavailable');
    return w;
  });
}
