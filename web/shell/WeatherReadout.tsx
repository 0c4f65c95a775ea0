import { useQuery } from '@tanstack/react-query';
import { Text } from '@mantine/core';
import { api } from '../api/client';
import type { Weather } from '../api/types';

export function WeatherReadout() {
  const q = useQuery({
    queryKey: ['weather'],
    queryFn: () => api<Weather>('/weather'),
    staleTime: 10 * 60 * 1000,
    refetchInterval: 10 * 60 * 1000,
    retry: false,
  });
  const text = q.isPending ? 'Loading weather…' : q.isError ? 'Weather unavailable' : `${q.data.temperatureF}°F · ${q.data.label}`;
  return (
    <Text size="sm" c="dimmed" data-testid="weather" aria-live="polite">
      {text}
    </Text>
  );
}
