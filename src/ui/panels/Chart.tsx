import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * A uPlot chart sized to its container. The chart is rebuilt when its options change and fed new
 * data otherwise (uPlot's setData), so a slider moving the data does not recreate it.
 */
export function Chart({
  options,
  data,
  label,
}: {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    const element = host.current;
    if (element === null) return;
    const size = () => ({ width: Math.max(320, element.clientWidth), height: 320 });
    const chart = new uPlot({ ...options, ...size() }, latest.current, element);
    plot.current = chart;
    const observer = new ResizeObserver(() => chart.setSize(size()));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [options]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return <div className="panel-chart" ref={host} role="img" aria-label={label} />;
}
