CREATE TABLE "campaign_serials" (
	"serial" text PRIMARY KEY NOT NULL,
	"campaign" text NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"licence_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"machine_id" text NOT NULL,
	"name" text NOT NULL,
	"method" text DEFAULT 'online' NOT NULL,
	"activated_at" timestamp with time zone NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivation_cause" text
);
--> statement-breakpoint
CREATE TABLE "licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"product_code" text NOT NULL,
	"trial_started_at" timestamp with time zone,
	"trial_ends_at" timestamp with time zone,
	"trial_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"product_code" text NOT NULL,
	"user_id" uuid,
	"registered_at" timestamp with time zone,
	"used_for_upgrade_at" timestamp with time zone,
	"source" text DEFAULT 'issued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_keys_key_shape" CHECK ("license_keys"."key" ~ '^[A-Z0-9]{24}$')
);
--> statement-breakpoint
CREATE TABLE "upgrade_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"target_product_code" text NOT NULL,
	"from_product_codes" jsonb NOT NULL,
	"used_at" timestamp with time zone,
	"used_by_user_id" uuid,
	"used_on_key_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_serials" ADD CONSTRAINT "campaign_serials_claimed_by_user_id_users_id_fk" FOREIGN KEY ("claimed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_licence_id_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_codes" ADD CONSTRAINT "upgrade_codes_used_by_user_id_users_id_fk" FOREIGN KEY ("used_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_codes" ADD CONSTRAINT "upgrade_codes_used_on_key_id_license_keys_id_fk" FOREIGN KEY ("used_on_key_id") REFERENCES "public"."license_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_serials_user_idx" ON "campaign_serials" USING btree ("claimed_by_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_active_machine_key" ON "devices" USING btree ("licence_id","machine_id") WHERE "devices"."deactivated_at" is null;--> statement-breakpoint
CREATE INDEX "devices_licence_idx" ON "devices" USING btree ("licence_id","activated_at");--> statement-breakpoint
CREATE INDEX "devices_user_idx" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licences_user_product_key" ON "licences" USING btree ("user_id","product_code");--> statement-breakpoint
CREATE UNIQUE INDEX "license_keys_key_key" ON "license_keys" USING btree ("key");--> statement-breakpoint
CREATE INDEX "license_keys_user_idx" ON "license_keys" USING btree ("user_id","product_code");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_codes_code_key" ON "upgrade_codes" USING btree ("code");