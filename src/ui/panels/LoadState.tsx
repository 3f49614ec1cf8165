import type { Load } from '../../store/panelsStore';

/** The busy line and the error of a panel's view (the last view stays shown meanwhile). */
export function LoadState<T>({ load }: { load: Load<T> }) {
  return (
    <>
      <p className="panel-busy" role="status" data-busy={load.status === 'loading' ? 'true' : 'false'}>
        {load.status === 'loading' ? 'Computing in the worker…' : ''}
      </p>
      {load.status === 'error' && (
        <p role="alert" className="panel-error">
          {load.message}
        </p>
      )}
    </>
  );
}
