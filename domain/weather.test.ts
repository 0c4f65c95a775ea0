import { describe, it, expect } from 'vitest';
import { weatherLabel, celsiusToFahrenheit } from './weather';

describe('weatherLabel', () => {
  it.each([
    [0, 'Clear'],
    [1, 'Mainly clear'],
    [2, 'Partly cloudy'],
    [3, 'Overcast'],
    [45, 'Fog'],
    [48, 'Depositing rime fog'],
    [51, 'Drizzle'],
    [53, 'Drizzle'],
    [55, 'Drizzle'],
    [56, 'Freezing rain'],
    [57, 'Freezing rain'],
    [61, 'Rain'],
    [63, 'Rain'],
    [65, 'Rain'],
    [66, 'Freezing rain'],
    [67, 'Freezing rain'],
    [71, 'Snow'],
    [73, 'Snow'],
    [75, 'Snow'],
    [77, 'Snow grains'],
    [80, 'Rain showers'],
    [81, 'Rain showers'],
    [82, 'Rain showers'],
    [85, 'Snow showers'],
    [86, 'Snow showers'],
    [95, 'Thunderstorm'],
    [96, 'Thunderstorm'],
    [99, 'Thunderstorm'],
  ])('code %i is %s', (code, label) => {
    expect(weatherLabel(code)).toBe(label);
  });

  it.each([4, 50, 100, -1, 1.5, NaN])('code %s is Unknown', (code) => {
    expect(weatherLabel(code)).toBe('Unknown');
  });
});

describe('celsiusToFahrenheit', () => {
  it.each([
    [0, 32],
    [100, 212],
    [-40, -40],
    [37, 99],
    [21.4, 71],
    [-17.8, 0],
  ])('%s C is %s F', (c, f) => {
    expect(celsiusToFahrenheit(c)).toBe(f);
  });
});
