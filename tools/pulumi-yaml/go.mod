// The YAML language host (pulumi-language-yaml), built by scripts/install-yaml.sh from the Go module proxy.
module pulumi-ops/tools/pulumi-yaml

go 1.25

require github.com/pulumi/pulumi-yaml v1.25.0 // indirect
