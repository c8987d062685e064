import { zodResolver } from '@hookform/resolvers/zod';
import { licenceMessages, messages, SERIAL_MAX_LENGTH, serialSchema } from '@soundid/contracts';
import { text, titles } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { TextField } from '../../../components/text-field';
import { useClaimAdamTrial } from '../api/claim-adam-trial';

const claimSchema = z.object({ serial: serialSchema });

export function AdamAudioScreen() {
  const claim = useClaimAdamTrial();
  const form = useForm<z.input<typeof claimSchema>, unknown, z.output<typeof claimSchema>>({
    resolver: zodResolver(claimSchema),
    defaultValues: { serial: '' },
  });

  return (
    <Page heading={titles.adamAudio}>
      <div className="card">
        {claim.isSuccess ? (
          <>
            <FormMessage tone="success">{messages.trialClaimed}</FormMessage>
            <p className="card__links">
              <Link to="/products">{licenceMessages.toProducts}</Link>
            </p>
          </>
        ) : (
          <>
            <p>{text.adamAudioIntro}</p>
            <form
              className="form"
              noValidate
              onSubmit={form.handleSubmit(({ serial }) =>
                // The claim faults (unknown or used serial) show under the field.
                claim.mutate(serial, { onError: (error) => form.setError('serial', { message: error.message }) }),
              )}
            >
              <TextField
                label={text.serialNumber}
                autoComplete="off"
                maxLength={SERIAL_MAX_LENGTH}
                error={form.formState.errors.serial?.message}
                {...form.register('serial')}
              />
              <Button type="submit" isBusy={claim.isPending} disabled={claim.isPending}>
                {text.claimTrial}
              </Button>
            </form>
          </>
        )}
      </div>
    </Page>
  );
}
