import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';

/**
 * A part of the page that can fail on its own: a lazily loaded chunk that does not arrive (offline, or
 * a newer version's deploy removed it), or a panel that throws while drawing. Its error shows in its
 * place, named, with a way to try again; the rest of the page keeps working. Without a boundary React
 * unmounts the whole tree and the page goes blank.
 */
interface Props {
  /** What the part is, in words ("the Ledger tab"). */
  name: string;
  children: ReactNode;
  /** Shown while the part's code loads. */
  fallback?: ReactNode;
}

interface State {
  error: Error | null;
  /** Bumped by Try again, so the part's lazy loaders start afresh. */
  attempt: number;
}

export class PartBoundary extends Component<Props, State> {
  override state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console keeps the component stack for whoever debugs it; the page shows the message.
    console.error(`${this.props.name} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error, attempt } = this.state;
    if (error === null)
      return (
        <Suspense key={attempt} fallback={this.props.fallback ?? null}>
          {this.props.children}
        </Suspense>
      );
    const chunk =
      /dynamically imported module|Importing a module script failed|error loading dynamically|ChunkLoadError/i.test(
        error.message,
      );
    return (
      <div role="alert" className="lab-alert part-error" data-part-error={this.props.name}>
        <p>
          {this.props.name.charAt(0).toUpperCase() + this.props.name.slice(1)} could not be shown: {error.message}
          {chunk ? ' (its code did not load: the network is down, or a newer version of the lab replaced it)' : ''}. The
          rest of the page keeps working.
        </p>
        <button
          type="button"
          className="lab-button"
          onClick={() => this.setState({ error: null, attempt: attempt + 1 })}
        >
          Try again
        </button>{' '}
        <button type="button" className="lab-button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
