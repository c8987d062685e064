import { type Address, isAddressComplete, messages, type Profile } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/select-field';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../lib/notifications';
import { usePaymentCountries } from '../api/get-payment-countries';
import { useUpdateUserDetails } from '../api/update-user-details';

function toAddress(profile: Profile | null): Address {
  return {
    addressLine1: profile?.AddressLine1 ?? '',
    city: profile?.City ?? '',
    state: profile?.State ?? '',
    postalCode: profile?.PostalCode ?? '',
    country: profile?.Country ?? '',
  };
}

/** All five fields are required: Save stays disabled until they are filled in (docs/requirements.md §5). */
export function AddressEditor({ profile, onDone }: { profile: Profile | null; onDone: () => void }) {
  const countries = usePaymentCountries();
  const update = useUpdateUserDetails();
  const form = useForm<Address>({ defaultValues: toAddress(profile) });
  const isComplete = isAddressComplete(form.watch());

  // Without the country list the address cannot be saved: the editor closes (docs/requirements.md §8).
  useEffect(() => {
    if (countries.isError) onDone();
  }, [countries.isError, onDone]);

  if (countries.isPending || countries.isError) return <Spinner label={text.loading} />;

  const submit = form.handleSubmit((address) =>
    update.mutate(address, {
      onSuccess: () => {
        notify('success', messages.addressChanged);
        onDone();
      },
    }),
  );

  return (
    <form className="form form--grid" noValidate onSubmit={submit}>
      <TextField
        className="form__wide"
        label={profileText.addressLine1}
        autoComplete="address-line1"
        autoFocus
        required
        {...form.register('addressLine1')}
      />
      <TextField label={profileText.city} autoComplete="address-level2" required {...form.register('city')} />
      <TextField label={profileText.state} autoComplete="address-level1" required {...form.register('state')} />
      <TextField label={profileText.postalCode} autoComplete="postal-code" required {...form.register('postalCode')} />
      <SelectField
        label={profileText.country}
        placeholder={profileText.chooseCountry}
        autoComplete="country"
        required
        options={countries.data.map((country) => ({ value: country.Code, label: country.Name }))}
        {...form.register('country')}
      />
      <div className="form__actions form__wide">
        <Button type="submit" isBusy={update.isPending} disabled={!isComplete || update.isPending}>
          {text.save}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {text.cancel}
        </Button>
      </div>
    </form>
  );
}
