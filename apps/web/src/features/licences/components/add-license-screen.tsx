import { faultMessage, messages } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Page } from '../../../components/page';
import { TextField } from '../../../components/text-field';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useRegisterKey } from '../api/register-key';
import { keyInputValue, keyProblem } from '../license-key-input';

export function AddLicenseScreen() {
  const navigate = useNavigate();
  const registerKey = useRegisterKey();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  // Problems show once the customer has left the field or submitted, then follow each keystroke.
  const [isChecked, setChecked] = useState(false);
  const [ownerEmail, setOwnerEmail] = useState<string>();

  const problem = isChecked && value ? keyProblem(value) : null;
  const isOwnedByAnother = isFault(registerKey.error, 'KeyOwnedByAnotherUser');
  const error =
    problem === 'upgradeCode'
      ? `${messages.looksLikeUpgradeCode} ${messages.registerKeyFirst}`
      : problem === 'format'
        ? messages.licenseKeyFormat
        : isOwnedByAnother
          ? messages.licenseRegistrationError
          : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value) {
      input.current?.focus();
      return;
    }
    setChecked(true);
    if (keyProblem(value)) {
      input.current?.focus();
      return;
    }
    registerKey.mutate(value, {
      onSuccess: (result) => {
        notify('success', messages.keyRegistered);
        // A voice AI key comes with the plugin's activation link: the products page offers it.
        const activationUrl = result.VoiceAi?.ActivationUrl;
        navigate('/products', activationUrl ? { state: { voiceAiActivationUrl: activationUrl } } : undefined);
      },
      onError: (failure) => {
        if (isFault(failure, 'KeyOwnedByAnotherUser')) {
          setOwnerEmail(failure.variable('OtherUserEmail') ?? '');
        }
      },
    });
  };

  return (
    <Page heading={text.addLicenseHeading}>
      <div className="card">
        <form className="form" noValidate onSubmit={submit}>
          <TextField
            ref={input}
            label={text.licenseKey}
            hint={text.licenseKeyHint}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="characters"
            className="field--key"
            value={value}
            error={error}
            onBlur={() => setChecked(Boolean(value))}
            onChange={(event) => {
              registerKey.reset();
              setValue(keyInputValue(event.target.value));
            }}
          />
          <Button type="submit" isBusy={registerKey.isPending} disabled={registerKey.isPending}>
            {text.registerKey}
          </Button>
        </form>
      </div>
      {ownerEmail !== undefined && (
        <Dialog title={messages.keyAlreadyUsedTitle} onClose={() => setOwnerEmail(undefined)}>
          {ownerEmail && <p>{text.keyOwnedBy(ownerEmail)}</p>}
          <p>{faultMessage('KeyOwnedByAnotherUser')}</p>
          <p>{messages.keyOneAccountAtATime}</p>
        </Dialog>
      )}
    </Page>
  );
}
