/** Not signed in: the viewer uses the demo's sign-in, made on the Workdesk page. */
export function SignInHint() {
  return (
    <section className="notice" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in to see run records</h2>
      <p>
        Run records belong to the person whose runs they are. <a href="/">Sign in on the Workdesk</a>, then come back to this page.
      </p>
    </section>
  );
}

export function Missing({ what }: { what: "run" | "thread" }) {
  return (
    <section className="notice" aria-labelledby="missing-heading">
      <h2 id="missing-heading">No such {what} (or not yours)</h2>
      <p>Check the address, or sign in as the person whose {what} it is.</p>
    </section>
  );
}

export function Failed({ message }: { message: string }) {
  return (
    <section className="notice notice--error" role="alert">
      <h2>Could not load</h2>
      <p>{message}</p>
    </section>
  );
}
