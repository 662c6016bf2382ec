// Adding up several processes' metrics series by series.
import { AggregationTemporality, DataPointType, type ScopeMetrics } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { mergeMetrics } from './cluster-metrics.js';

const time: [number, number] = [0, 0];

function snapshot(calls: number, active: number, counts: number[]): ScopeMetrics[] {
  const descriptor = (name: string) =>
    ({ name, description: '', unit: '', valueType: 1, type: 'COUNTER' }) as never;
  return [
    {
      scope: { name: 's' },
      metrics: [
        {
          descriptor: descriptor('calls'),
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: true,
          dataPoints: [{ attributes: { tool: 'a' }, startTime: time, endTime: time, value: calls }],
        },
        {
          descriptor: descriptor('active'),
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: false,
          dataPoints: [{ attributes: {}, startTime: time, endTime: time, value: active }],
        },
        {
          descriptor: descriptor('duration'),
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.HISTOGRAM,
          dataPoints: [
            {
              attributes: { tool: 'a' },
              startTime: time,
              endTime: time,
              value: {
                buckets: { boundaries: [1], counts },
                sum: 1,
                count: counts[0]! + counts[1]!,
                min: 0.5,
                max: 2,
              },
            },
          ],
        },
      ],
    },
  ];
}

describe('mergeMetrics', () => {
  it('sums counters, gauges and histogram buckets of the same series', () => {
    const [scope] = mergeMetrics([snapshot(3, 1, [2, 1]), snapshot(4, 2, [1, 3])]);
    const values = Object.fromEntries(scope!.metrics.map((m) => [m.descriptor.name, m.dataPoints[0]?.value]));
    expect(values.calls).toBe(7);
    expect(values.active).toBe(3);
    expect(values.duration).toMatchObject({
      buckets: { counts: [3, 4] },
      count: 7,
      sum: 2,
      min: 0.5,
      max: 2,
    });
  });

  it('keeps only what `keep` picks (a dead worker leaves its counts, not its gauges)', () => {
    const [scope] = mergeMetrics([snapshot(3, 1, [2, 1])], (m) => m.descriptor.name !== 'active');
    expect(scope!.metrics.map((m) => m.descriptor.name)).toEqual(['calls', 'duration']);
  });
});
