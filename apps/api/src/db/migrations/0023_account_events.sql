CREATE TABLE "account_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"product_code" text,
	"device" text,
	"user_agent" text,
	"ip" text,
	"detail" text,
	"reported_event_id" bigint,
	CONSTRAINT "account_events_kind" CHECK (kind in ('signed_in', 'session_ended', 'password_changed', 'email_changed', 'two_step_on', 'two_step_off', 'passkey_added', 'passkey_removed', 'device_activated', 'device_deactivated', 'device_idle_released', 'device_lost', 'licence_registered', 'licence_removed', 'licence_upgraded', 'licence_passed_on', 'licence_received', 'tokens_purchased', 'tokens_granted', 'tokens_refunded', 'tokens_withdrawn', 'support_action', 'not_me_reported'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "licence_transfers_frozen_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_events" ADD CONSTRAINT "account_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_events_user_idx" ON "account_events" USING btree ("user_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "account_events_reported_key" ON "account_events" USING btree ("reported_event_id");--> statement-breakpoint
-- My activity (docs/decisions/0055-my-activity.md): entries are appended, never changed.
CREATE FUNCTION "account_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'account_events is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_no_update" BEFORE UPDATE ON "account_events"
  FOR EACH ROW EXECUTE FUNCTION "account_events_append_only"();
--> statement-breakpoint
-- Each change writes its entry in its own statement, so in its own transaction, whichever path
-- made it (the portal, an app, a job, the console). The entry's time is the row's own clock-set
-- column, never now(): the timeline follows the service's clock.
CREATE FUNCTION "account_events_of_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "user_agent", "ip")
      VALUES (NEW."user_id", NEW."created_at", 'signed_in', NEW."user_agent", NEW."ip");
  ELSIF OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "user_agent", "ip")
      VALUES (NEW."user_id", NEW."revoked_at", 'session_ended', NEW."user_agent", NEW."ip");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_sessions" AFTER INSERT OR UPDATE OF "revoked_at" ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_sessions"();
--> statement-breakpoint
-- A password or address change sets updated_at; a rehash at sign-in (same password) does not,
-- and a password stopped by a report (null) is the report's own entry.
CREATE FUNCTION "account_events_of_users"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."updated_at" IS DISTINCT FROM OLD."updated_at" THEN
    IF NEW."password_hash" IS NOT NULL AND NEW."password_hash" IS DISTINCT FROM OLD."password_hash" THEN
      INSERT INTO "account_events" ("user_id", "at", "kind") VALUES (NEW."id", NEW."updated_at", 'password_changed');
    END IF;
    IF NEW."email" IS DISTINCT FROM OLD."email" THEN
      INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
        VALUES (NEW."id", NEW."updated_at", 'email_changed', NEW."email");
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_users" AFTER UPDATE OF "password_hash", "email" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_users"();
--> statement-breakpoint
CREATE FUNCTION "account_events_of_totp_factors"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."confirmed_at" IS NULL AND NEW."confirmed_at" IS NOT NULL THEN
    INSERT INTO "account_events" ("user_id", "at", "kind") VALUES (NEW."user_id", NEW."confirmed_at", 'two_step_on');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_totp_factors" AFTER UPDATE OF "confirmed_at" ON "totp_factors"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_totp_factors"();
--> statement-breakpoint
CREATE FUNCTION "account_events_of_passkeys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
    VALUES (NEW."user_id", NEW."created_at", 'passkey_added', NEW."name");
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_passkeys" AFTER INSERT ON "passkeys"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_passkeys"();
--> statement-breakpoint
CREATE FUNCTION "account_events_of_devices"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  product text := (SELECT "product_code" FROM "licences" WHERE "id" = NEW."licence_id");
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "product_code", "device")
      VALUES (NEW."user_id", NEW."activated_at", 'device_activated', product, NEW."name");
  ELSIF OLD."deactivated_at" IS NULL AND NEW."deactivated_at" IS NOT NULL THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "product_code", "device", "detail")
      VALUES (
        NEW."user_id",
        NEW."deactivated_at",
        CASE NEW."deactivation_cause" WHEN 'idle' THEN 'device_idle_released' WHEN 'lost' THEN 'device_lost' ELSE 'device_deactivated' END,
        product,
        NEW."name",
        NEW."deactivation_cause"
      );
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_devices" AFTER INSERT OR UPDATE OF "deactivated_at" ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_devices"();
--> statement-breakpoint
-- A key registered (or made owned: a purchase, an upgrade's new key), passed from one account
-- to another (a transfer, support's move), or traded in for an upgrade. Its removal leaves the
-- key without an owner or a time: LicenceService writes that entry.
CREATE FUNCTION "account_events_of_license_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."user_id" IS NOT NULL THEN
      INSERT INTO "account_events" ("user_id", "at", "kind", "product_code")
        VALUES (NEW."user_id", coalesce(NEW."registered_at", NEW."created_at"), 'licence_registered', NEW."product_code");
    END IF;
    RETURN NULL;
  END IF;
  IF NEW."user_id" IS NOT NULL AND NEW."user_id" IS DISTINCT FROM OLD."user_id" AND NEW."registered_at" IS NOT NULL THEN
    IF OLD."user_id" IS NULL THEN
      INSERT INTO "account_events" ("user_id", "at", "kind", "product_code")
        VALUES (NEW."user_id", NEW."registered_at", 'licence_registered', NEW."product_code");
    ELSE
      INSERT INTO "account_events" ("user_id", "at", "kind", "product_code")
        VALUES (OLD."user_id", NEW."registered_at", 'licence_passed_on', NEW."product_code"),
               (NEW."user_id", NEW."registered_at", 'licence_received', NEW."product_code");
    END IF;
  END IF;
  IF OLD."used_for_upgrade_at" IS NULL AND NEW."used_for_upgrade_at" IS NOT NULL AND NEW."user_id" IS NOT NULL THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "product_code")
      VALUES (NEW."user_id", NEW."used_for_upgrade_at", 'licence_upgraded', NEW."product_code");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_license_keys" AFTER INSERT OR UPDATE OF "user_id", "used_for_upgrade_at" ON "license_keys"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_license_keys"();
--> statement-breakpoint
CREATE FUNCTION "account_events_of_token_lots"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
      VALUES (
        NEW."user_id",
        NEW."purchased_at",
        CASE NEW."cause" WHEN 'purchase' THEN 'tokens_purchased' ELSE 'tokens_granted' END,
        NEW."amount"::text
      );
  ELSIF OLD."refunded_at" IS NULL AND NEW."refunded_at" IS NOT NULL THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
      VALUES (NEW."user_id", NEW."refunded_at", 'tokens_refunded', NEW."withdrawn"::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_token_lots" AFTER INSERT OR UPDATE OF "refunded_at" ON "token_lots"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_token_lots"();
--> statement-breakpoint
CREATE FUNCTION "account_events_of_token_withdrawals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
    VALUES (NEW."user_id", NEW."withdrawn_at", 'tokens_withdrawn', NEW."amount"::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_token_withdrawals" AFTER INSERT ON "token_withdrawals"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_token_withdrawals"();
--> statement-breakpoint
-- Support's actions on the customer, from the operators' audit trail (ADR 0045): done ones only,
-- while the account exists (the trail keeps entries of deleted accounts).
CREATE FUNCTION "account_events_of_audit_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."customer_id" IS NOT NULL AND NEW."outcome" = 'done' THEN
    INSERT INTO "account_events" ("user_id", "at", "kind", "detail")
      SELECT "id", NEW."at", 'support_action', NEW."action" FROM "users" WHERE "id" = NEW."customer_id";
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "account_events_audit_entries" AFTER INSERT ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "account_events_of_audit_entries"();
