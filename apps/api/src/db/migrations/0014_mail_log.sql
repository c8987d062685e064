CREATE TABLE "mail_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"user_id" uuid,
	"subject" text NOT NULL,
	"outcome" text NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_log_outcome" CHECK ("mail_log"."outcome" in ('sent', 'failed')),
	CONSTRAINT "mail_log_outcome_fields" CHECK (("mail_log"."outcome" = 'sent' and "mail_log"."sent_at" is not null and "mail_log"."failure" is null) or ("mail_log"."outcome" = 'failed' and "mail_log"."sent_at" is null and "mail_log"."failure" is not null)),
	CONSTRAINT "mail_log_failure_short" CHECK (char_length("mail_log"."failure") <= 200)
);
--> statement-breakpoint
CREATE INDEX "mail_log_user_idx" ON "mail_log" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "mail_log_to_idx" ON "mail_log" USING btree ("to_address","id");--> statement-breakpoint
CREATE INDEX "mail_log_created_idx" ON "mail_log" USING btree ("created_at");--> statement-breakpoint
-- Backfill (ADR 0038, revision "a record of every mail"): the mails the dev outbox kept, which the
-- export listed until now, each as sent when it was stored; subject and times only, no body or link.
INSERT INTO "mail_log" ("to_address", "user_id", "subject", "outcome", "created_at", "sent_at")
SELECT "to_address", "user_id", "subject", 'sent', "created_at", "created_at" FROM "mail_outbox" ORDER BY "id";
