// Package objstore keeps receipt images in a private S3-compatible bucket
// (AWS S3, MinIO, versitygw, R2, ...) through aws-sdk-go-v2: it is the
// payments.ObjectStore of clubd. Requests are signed with SigV4; a custom
// endpoint and path-style addressing serve the non-AWS stores.
//
// The bucket is private: objects are read back only through the API, and no
// object address is ever built for a client.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// DefaultRegion is the region when Config.Region is empty.
const DefaultRegion = "us-east-1"

// Config locates the bucket and the credentials to reach it; each field has
// the OBJSTORE_* variable of the same name.
type Config struct {
	Bucket          string // OBJSTORE_BUCKET; empty: storage not configured
	AccessKeyID     string // OBJSTORE_ACCESS_KEY_ID; empty: the SDK's default chain (AWS_* variables, profiles, instance roles)
	SecretAccessKey string // OBJSTORE_SECRET_ACCESS_KEY
	Region          string // OBJSTORE_DEFAULT_REGION; default us-east-1
	Endpoint        string // OBJSTORE_ENDPOINT; empty: AWS S3
	UsePathStyle    bool   // OBJSTORE_USE_PATH_STYLE_ENDPOINT: http://host/bucket/key instead of http://bucket.host/key
	// PublicBaseURL (OBJSTORE_PUBLIC_BASE_URL) is accepted for compatibility
	// with deployments that set it, and never used: receipts are private,
	// foto is an internal key, and images reach clients only through
	// GET .../foto. clubd logs that it is ignored.
	PublicBaseURL string
}

// Validate checks the settings without contacting the store.
// Errors: a description of the first invalid setting.
func (c Config) Validate() error {
	switch {
	case c.Bucket == "":
		return errors.New("OBJSTORE_BUCKET is required")
	case (c.AccessKeyID == "") != (c.SecretAccessKey == ""):
		return errors.New("OBJSTORE_ACCESS_KEY_ID and OBJSTORE_SECRET_ACCESS_KEY go together")
	}
	if c.Endpoint != "" {
		if u, err := url.Parse(c.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("OBJSTORE_ENDPOINT %q must be an absolute http(s) URL", c.Endpoint)
		}
	}
	return nil
}

// Store is a bucket of receipt images. It implements payments.ObjectStore.
type Store struct {
	client *s3.Client
	bucket string
}

// New returns the Store of cfg. It does not contact the store (see Check).
// Errors: an invalid Config, or the SDK's failure to load its configuration.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	region := cfg.Region
	if region == "" {
		region = DefaultRegion
	}
	opts := []func(*config.LoadOptions) error{config.WithRegion(region)}
	if cfg.AccessKeyID != "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, "")))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("object store: %w", err)
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(strings.TrimRight(cfg.Endpoint, "/"))
		}
		o.UsePathStyle = cfg.UsePathStyle
		// Checksums only where S3 requires them: many S3-compatible stores
		// refuse the trailing checksums the SDK would otherwise add.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	return &Store{client: client, bucket: cfg.Bucket}, nil
}

// Check asks the store whether the bucket exists and the credentials reach
// it. Errors: the store's answer.
func (s *Store) Check(ctx context.Context) error {
	if _, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket}); err != nil {
		return fmt.Errorf("object store: bucket %s: %w", s.bucket, err)
	}
	return nil
}

// EnsureBucket creates the bucket unless it exists (and is the caller's).
// Errors: the store's answer.
func (s *Store) EnsureBucket(ctx context.Context) error {
	_, err := s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &s.bucket})
	var owned *types.BucketAlreadyOwnedByYou
	if err != nil && !errors.As(err, &owned) {
		return fmt.Errorf("object store: create bucket %s: %w", s.bucket, err)
	}
	return nil
}

// Put stores size bytes of body under key, streamed: the body is not
// buffered. A body that can seek (a spooled file) is signed with its SHA-256,
// read twice; any other body is sent as UNSIGNED-PAYLOAD, which SigV4 allows.
// Errors: the store's answer.
func (s *Store) Put(ctx context.Context, key, contentType string, body io.Reader, size int64) error {
	in := &s3.PutObjectInput{
		Bucket: &s.bucket, Key: &key, Body: body, ContentLength: &size, ContentType: &contentType,
		CacheControl: aws.String("private, no-store"),
	}
	var opts []func(*s3.Options)
	if _, ok := body.(io.ReadSeeker); !ok {
		opts = append(opts, s3.WithAPIOptions(v4.SwapComputePayloadSHA256ForUnsignedPayloadMiddleware))
	}
	if _, err := s.client.PutObject(ctx, in, opts...); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Get opens the object under key; the caller closes it.
// Errors: fs.ErrNotExist, or the store's answer.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return nil, fmt.Errorf("get %s: %w", key, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return out.Body, nil
}

// Delete removes the object under key; a missing object is not an error.
// Errors: the store's answer.
func (s *Store) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Keys lists the keys under prefix, in the store's (lexical) order. It is
// for operators and tests: finding objects no payment points to.
// Errors: the store's answer.
func (s *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	keys := []string{}
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

func isNotFound(err error) bool {
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	var api smithy.APIError
	return errors.As(err, &nsk) || errors.As(err, &nf) ||
		(errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound"))
}
