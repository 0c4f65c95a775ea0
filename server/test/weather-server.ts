import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small local server that answers as Open-Meteo's /v1/forecast does, for tests. */
export async function startWeatherServer(initial: { temperature: number; weathercode: number } | 'fail' = { temperature: 20, weathercode: 3 }) {
  let answer = initial;
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/v1/forecast' || url.searchParams.get('current_weather') !== 'true' || answer === 'fail') {
      res.writeHead(answer === 'fail' ? 503 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: true, reason: 'unavailable' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        latitude: Number(url.searchParams.get('latitude')),
        longitude: Number(url.searchParams.get('longitude')),
        current_weather: { time: new Date().toISOString().slice(0, 16), interval: 900, ...answer, windspeed: 10, winddirection: 200, is_day: 1 },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    set(a: typeof answer) {
      answer = a;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
