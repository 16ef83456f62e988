/**
 * The session has read outside content (a web page, an MCP result): from now on anything that can
 * send data out asks first. The reasons are listed, oldest first.
 */
export function TaintIndicator({ taints }: { taints: string[] }) {
  return (
    <details className="taint-indicator" data-testid="taint-indicator">
      <summary className="badge taint" title="This session has read outside content; actions that send data out ask first.">
        tainted ({taints.length})
      </summary>
      <div className="popover" role="note">
        <p>This session has read content from outside the project. Anything that could send data out now asks first.</p>
        <ul data-testid="taint-reasons">
          {taints.map((reason, index) => (
            <li key={index}>{reason}</li>
          ))}
        </ul>
      </div>
    </details>
  );
}
