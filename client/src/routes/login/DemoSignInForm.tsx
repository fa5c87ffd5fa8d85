import { useState, type FormEvent } from 'react';

/** The demo-mode sign-in (`POST /api/auth/login {email, name}`), clearly marked as such. */
export function DemoSignInForm({
  busy,
  onSubmit,
}: {
  busy: boolean;
  onSubmit: (email: string, name: string) => void;
}) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(email.trim(), name.trim());
  };

  return (
    <section className="demo-signin" aria-labelledby="demo-signin-title">
      <h2 id="demo-signin-title" className="demo-signin-title">
        Demo sign-in <span className="badge badge-warning">Demo mode</span>
      </h2>
      <p className="field-hint">
        This server runs in demo mode: any email and name will do, and nothing is verified. Use it to try
        Portfolio Guard, not for your real portfolio.
      </p>
      <form onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor="demo-email">
            Email
          </label>
          <input
            id="demo-email"
            className="input"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            maxLength={254}
            placeholder="you@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={busy}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="demo-name">
            Name
          </label>
          <input
            id="demo-name"
            className="input"
            type="text"
            autoComplete="name"
            required
            maxLength={100}
            placeholder="Asha Verma"
            value={name}
            onChange={(event) => setName(event.target.value)}
            disabled={busy}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Sign in (demo)
        </button>
      </form>
    </section>
  );
}
