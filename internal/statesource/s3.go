package statesource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// Terraform's s3 backend (internal/backend/remote-state/s3 in Terraform's
// source): the default workspace's state is the object key; every other
// workspace's is <workspace_key_prefix>/<workspace>/<key>, the prefix
// defaulting to env:. Its locks (a DynamoDB item or a <key>.tflock object)
// are only ever written by terraform; a GET takes none.
const s3DefaultWorkspacePrefix = "env:"

type s3Source struct {
	client                *s3.Client
	bucket, key, wsPrefix string
	endpoint              string
}

func newS3(settings map[string]string, getenv func(string) string) (Source, error) {
	bucket, key := settings["bucket"], settings["key"]
	if bucket == "" || key == "" {
		return nil, errors.New("the s3 backend needs --backend-config bucket=… and --backend-config key=… (the backend block's)")
	}
	prefix, ok := settings["workspace_key_prefix"]
	if !ok {
		prefix = s3DefaultWorkspacePrefix
	}
	region := first(settings["region"], getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"), "us-east-1")
	endpoint := first(settings["endpoint"], getenv("AWS_ENDPOINT_URL_S3"), getenv("AWS_ENDPOINT_URL"))
	pathStyle := false
	if v, ok := settings["use_path_style"]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("invalid --backend-config use_path_style=%q: use true or false", v)
		}
		pathStyle = b
	}
	// The AWS variables Terraform's s3 backend reads for static keys.
	id, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	if id == "" || secret == "" {
		return nil, errors.New("the s3 backend needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	opts := s3.Options{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(id, secret, getenv("AWS_SESSION_TOKEN")),
		UsePathStyle: pathStyle,
		AppID:        "terraform-provider-sbx",
		// S3-compatible stores differ in the checksums they accept; a GET
		// needs none.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}
	if endpoint != "" {
		opts.BaseEndpoint = aws.String(endpoint)
	}
	return &s3Source{client: s3.New(opts), bucket: bucket, key: key, wsPrefix: prefix, endpoint: endpoint}, nil
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func (s *s3Source) Describe() string {
	d := fmt.Sprintf("s3 backend s3://%s/%s", s.bucket, s.key)
	if s.endpoint != "" {
		d += " at " + s.endpoint
	}
	return d
}

// workspaceOf is the workspace whose state is at object key k, or "".
func (s *s3Source) workspaceOf(k string) string {
	rest := k
	if s.wsPrefix != "" {
		var ok bool
		rest, ok = strings.CutPrefix(k, s.wsPrefix+"/")
		if !ok {
			return ""
		}
	}
	ws, tail, ok := strings.Cut(rest, "/")
	if !ok || tail != s.key || ws == "" {
		return ""
	}
	return ws
}

func (s *s3Source) Each(ctx context.Context, fn func(string, io.Reader) error) error {
	keys := map[string]string{}
	var names []string
	// The default workspace is the key itself; HEAD says whether it exists.
	if _, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &s.key}); err == nil {
		keys["default"] = s.key
		names = append(names, "default")
	} else if !isNotFound(err) {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	listPrefix := ""
	if s.wsPrefix != "" {
		listPrefix = s.wsPrefix + "/"
	}
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &listPrefix})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Describe(), err)
		}
		for _, o := range page.Contents {
			if ws := s.workspaceOf(aws.ToString(o.Key)); ws != "" && ws != "default" {
				if _, dup := keys[ws]; !dup {
					keys[ws] = aws.ToString(o.Key)
					names = append(names, ws)
				}
			}
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: no state: neither %s nor %s/<workspace>/%s is in the bucket", s.Describe(), s.key, s.wsPrefix, s.key)
	}
	sortedNames(names)
	for _, ws := range names {
		if err := s.one(ctx, ws, keys[ws], fn); err != nil {
			return &WorkspaceError{Source: s.Describe(), Workspace: ws, Err: err}
		}
	}
	return nil
}

func (s *s3Source) one(ctx context.Context, ws, key string, fn func(string, io.Reader) error) error {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return fmt.Errorf("s3://%s/%s: %w", s.bucket, key, err)
	}
	defer func() { _ = out.Body.Close() }() // read-only: nothing to lose on close
	return fn(ws, out.Body)
}

func isNotFound(err error) bool {
	var nf *types.NotFound
	var nk *types.NoSuchKey
	return errors.As(err, &nf) || errors.As(err, &nk)
}
