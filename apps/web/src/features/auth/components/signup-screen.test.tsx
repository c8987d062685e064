import { faults } from '@soundid/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fault, mockApi, ok } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

async function openSignup() {
  const app = renderApp('/signup', { user: null });
  await screen.findByRole('heading', { level: 1, name: 'Sign up' });
  return {
    ...app,
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    repeat: screen.getByLabelText('Repeat password'),
    submit: screen.getByRole('button', { name: 'Sign up' }),
  };
}

describe('signup', () => {
  it('shows the validators’ messages and the minimum-length hint', async () => {
    const api = mockApi({});
    const { user, email, password, repeat, submit } = await openSignup();
    expect(screen.getByText('minimum 8 characters')).toBeInTheDocument();
    await user.type(email, 'ada@');
    await user.type(password, 'short');
    await user.type(repeat, 'other');
    await user.click(submit);
    expect(screen.getByText('Email address is not in a correct format.')).toBeInTheDocument();
    expect(screen.getAllByText('Password is shorter than 8 symbols.')).toHaveLength(2);
    expect(email).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });

  it('requires the repeated password to match', async () => {
    mockApi({});
    const { user, email, password, repeat, submit } = await openSignup();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'long-enough-1');
    await user.type(repeat, 'long-enough-2');
    await user.click(submit);
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(repeat).toHaveFocus();
  });

  it('shows the fault under the e-mail field', async () => {
    mockApi({ register: fault('UserAlreadyRegistered') });
    const { user, email, password, repeat, submit } = await openSignup();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'long-enough-1');
    await user.type(repeat, 'long-enough-1');
    await user.click(submit);
    expect(
      await screen.findByText('An account with this email address already exists. Please log in.'),
    ).toHaveAttribute('id', email.getAttribute('aria-describedby'));
  });

  // ADR 0031, ASVS 2.4.1: over a sign-up or mail limit the service answers 429 and the screen
  // says why, under the e-mail field, in the catalogue's words.
  it.each(['AttemptOverLimitSignUp', 'AttemptOverLimitSignUpTotal', 'AttemptOverLimitMailbox'] as const)(
    'shows %s under the e-mail field',
    async (name) => {
      mockApi({ register: fault(name, { ExceptionType: 40, ExceptionCode: 429 }) });
      const { user, email, password, repeat, submit } = await openSignup();
      await user.type(email, 'ada@example.com');
      await user.type(password, 'long-enough-1');
      await user.type(repeat, 'long-enough-1');
      await user.click(submit);
      expect(await screen.findByText(faults[name].message)).toHaveAttribute(
        'id',
        email.getAttribute('aria-describedby'),
      );
      expect(screen.queryByRole('heading', { level: 1, name: 'Please verify your email' })).toBeNull();
    },
  );

  // ADR 0031, ASVS 1.2.x: one address is one mailbox, checked before anything is sent.
  it.each(['ada@example.com,attacker.example', 'Ada <ada@example.com>', '"ada"@example.com'])(
    'refuses %j with the spec message, calling nothing',
    async (address) => {
      const api = mockApi({ register: ok() });
      const { user, email, password, repeat, submit } = await openSignup();
      await user.type(email, address);
      await user.type(password, 'long-enough-1');
      await user.type(repeat, 'long-enough-1');
      await user.click(submit);
      expect(screen.getByText('Email address is not in a correct format.')).toBeInTheDocument();
      expect(api.calls).toHaveLength(0);
    },
  );

  it('registers and asks to verify the e-mail', async () => {
    const api = mockApi({ register: ok() });
    const { user, email, password, repeat, submit } = await openSignup();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'long-enough-1');
    await user.type(repeat, 'long-enough-1');
    await user.click(submit);
    expect(await screen.findByRole('heading', { level: 1, name: 'Please verify your email' })).toBeInTheDocument();
    expect(api.callsTo('register')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'long-enough-1',
      silent: true,
    });
  });
});
