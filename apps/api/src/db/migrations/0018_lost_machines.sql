CREATE TABLE "lost_machines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"licence_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"machine_id" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"reported_at" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lost_machines" ADD CONSTRAINT "lost_machines_licence_id_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_machines" ADD CONSTRAINT "lost_machines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lost_machines_standing_key" ON "lost_machines" USING btree ("licence_id","machine_id") WHERE "lost_machines"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "lost_machines_licence_idx" ON "lost_machines" USING btree ("licence_id","reported_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lost_machines_device_key" ON "lost_machines" USING btree ("device_id");