ALTER TABLE "mail_outbox" ADD COLUMN "user_id" uuid;--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id","id");--> statement-breakpoint
-- Backfill (ADR 0038). First the addresses accounts took by a confirmed e-mail change: a mail to
-- one, from that change's confirmation mail until the account's next confirmed change, was about
-- that account. Then what is left to an account's current address (what the export found before).
-- The address an account signed up with is kept nowhere once changed: mails to it stay without one.
UPDATE "mail_outbox" AS "m" SET "user_id" = "h"."user_id"
FROM (
  SELECT "user_id", "new_email", "created_at" AS "held_from",
    lead("used_at") OVER (PARTITION BY "user_id" ORDER BY "used_at") AS "held_until"
  FROM "action_tokens"
  WHERE "kind" = 'email_change' AND "used_at" IS NOT NULL AND "user_id" IS NOT NULL
) AS "h"
WHERE "m"."user_id" IS NULL AND "m"."to_address" = "h"."new_email" AND "m"."created_at" >= "h"."held_from"
  AND ("h"."held_until" IS NULL OR "m"."created_at" < "h"."held_until");--> statement-breakpoint
UPDATE "mail_outbox" AS "m" SET "user_id" = "u"."id" FROM "users" AS "u"
WHERE "m"."user_id" IS NULL AND "m"."to_address" = "u"."email";
