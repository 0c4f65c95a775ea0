import { useQuery } from '@tanstack/react-query';
import { Text } from '@mantine/core';
import { call } from '../api/client';
import { IN_BROWSER_ONLY } from '../components/AfterDraw';

export function WeatherReadout() {
  const q = useQuery({
    queryKey: ['weather'],
    queryFn: () => call('GET /weather'),
    staleTime: 10 * 60 * 1000,
    refetchInterval: 10 * 60 * 1000,
    retry: false,
    meta: IN_BROWSER_ONLY,
  });
  return (
    <Text size="sm" c="dimmed" data-testid="weather" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
      {q.isPending ? (
        'Loading weather…'
      ) : q.isError ? (
        'Weather unavailable'
      ) : (
        <>
          {q.data.temperatureF}°F
          {/* On a phone the temperature alone keeps the header on one line. */}
          <Text span inherit visibleFrom="sm">
            {' '}
            · {q.data.label}
          </Text>
        </>
      )}
    </Text>
  );
}
