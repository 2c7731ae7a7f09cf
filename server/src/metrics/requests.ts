import type { Request } from 'restify';
import { routeOf, routePathOf } from '../http/restify.ts';
import { openApiPath } from '../openapi/document.ts';

/**
 * Requests by route template, method and status, and their latency by route template and method.
 *
 * The hot path only adds to plain numbers (one Map lookup per request); the Prometheus values are built
 * when a scrape asks for them (`get()`, the interface prom-client's Registry reads). prom-client's own
 * Counter and Histogram hash their label objects at every observation: measured 570 ns of CPU per
 * request for an inc and an observe, against about 100 ns for this (the `metrics hot path` line of
 * `make bench-metrics`).
 */

/** Upper bounds in seconds: a read takes well under a millisecond; a change waiting for replicas up to seconds. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The label of a request no route matched (404 of an unknown path, or answered before routing). */
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS']);

interface Series {
  route: string;
  method: string;
  /** Answers by status. */
  statuses: Map<number, number>;
  /** Per bucket (not cumulative), then everything above the last bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

const START = Symbol('usersvc.metrics.start');
type TimedRequest = Request & { [START]?: number };

/** `/apps/:app_id/domains` → `/apps/{app_id}/domains`: the label never carries an id, only the template. */
function routeLabel(req: Request): string {
  const path = routePathOf(req);
  return path !== undefined ? openApiPath(path) : UNMATCHED_ROUTE;
}

export class RequestMetrics {
  /** Every series, for the scrape. */
  private readonly series: Series[] = [];
  /** By route object (or undefined: unmatched), then by method: no string is built per request. */
  private readonly byRoute = new Map<unknown, Map<string, Series>>();

  /** Called as the request arrives (the app's `first` handler). */
  started(req: Request): void {
    (req as TimedRequest)[START] = performance.now();
  }

  /** Called once the answer is written. */
  finished(req: Request, status: number): void {
    const start = (req as TimedRequest)[START];
    const seconds = start === undefined ? 0 : (performance.now() - start) / 1000;
    const route = routeOf(req);
    let byMethod = this.byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    const method = req.method ?? '';
    let series = byMethod.get(method);
    if (!series) {
      series = this.newSeries(routeLabel(req), METHODS.has(method) ? method : 'other');
      byMethod.set(method, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) bucket++;
    (series.buckets[bucket] as number)++;
    series.sum += seconds;
    series.count++;
  }

  /** Methods outside METHODS share the `other` series of their route. */
  private newSeries(route: string, method: string): Series {
    const existing = this.series.find((s) => s.route === route && s.method === method);
    if (existing) return existing;
    const series: Series = {
      route,
      method,
      statuses: new Map(),
      buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    this.series.push(series);
    return series;
  }

  /** The counter, in the shape prom-client's Registry formats and its cluster aggregation sums. */
  readonly requestsMetric = {
    name: 'usersvc_http_requests_total',
    help: 'Answered HTTP requests by route template, method and status.',
    type: 'counter',
    aggregator: 'sum',
    get: () => {
      const values: MetricValue[] = [];
      for (const s of this.series) {
        for (const [status, value] of s.statuses) {
          values.push({ value, labels: { route: s.route, method: s.method, status } });
        }
      }
      const { name, help, type, aggregator } = this.requestsMetric;
      return { name, help, type, aggregator, values };
    },
  };

  readonly latencyMetric = {
    name: 'usersvc_http_request_duration_seconds',
    help: 'Time from the arrival of a request to its answer, by route template and method.',
    type: 'histogram',
    aggregator: 'sum',
    get: () => {
      const values: MetricValue[] = [];
      const { name, help, type, aggregator } = this.latencyMetric;
      for (const s of this.series) {
        const labels = { route: s.route, method: s.method };
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i] as number;
          values.push({ value: cumulative, labels: { ...labels, le }, metricName: `${name}_bucket` });
        });
        values.push({ value: s.count, labels: { ...labels, le: '+Inf' }, metricName: `${name}_bucket` });
        values.push({ value: s.sum, labels, metricName: `${name}_sum` });
        values.push({ value: s.count, labels, metricName: `${name}_count` });
      }
      return { name, help, type, aggregator, values };
    },
  };
}
