// Declare an edge network, social pages and posts, a skills registry, a model runner and remote commands as Pulumi resources.
package ops
